// The README's snippets, taken out of it and made into workflows a test can run as they are.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { wrapSnippet } from '../../scripts/lint-actions/snippets.mjs'
import { ROOT } from '../support/runner.mjs'

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')

/** The first ```yaml block under a heading of the README (`## Usage`, `### Deploy with Helm`). */
export function snippet(heading: string): string {
  const section = readme.slice(readme.indexOf(`\n${heading}\n`))
  const match = /```yaml\n([\s\S]*?)```/.exec(section)
  if (match?.[1] === undefined) throw new Error(`no yaml block under ${heading}`)
  return match[1]
}

/** A job around a snippet of steps, run `on` an event, made as `npm run lint:actions` makes it. */
export function asWorkflow(
  steps: string,
  on: Record<string, unknown> = { workflow_dispatch: {} },
): string {
  return wrapSnippet(steps, 'steps', JSON.stringify(on)).text
}

/** A snippet that is a whole `jobs:` map, as a workflow run on workflow_dispatch. */
export function jobsAsWorkflow(jobs: string): string {
  return wrapSnippet(jobs, 'workflow').text
}
