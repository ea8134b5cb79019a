// The README's snippets, taken out of it and made into workflows a test can run as they are.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { wrapSnippet } from '../../scripts/lint-actions/snippets.mjs'
import { ROOT } from '../support/runner.mjs'

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')

/**
 * The text of a doc (the README, docs/CLI.md) under a heading that starts with `heading`, up
 * to the next ## or ### (a block's # is a comment).
 */
export function section(doc: string, heading: string): string {
  const at = doc.indexOf(`\n${heading}`)
  if (at === -1) throw new Error(`no heading ${heading}`)
  const end = doc.indexOf('\n##', at + 1)
  // The last section runs to the end of the doc (slice(at, -1) would drop its last character).
  return doc.slice(at, end === -1 ? undefined : end)
}

/** The first ```lang block in a doc under a heading (`### Deploy with Helm`). */
export function block(doc: string, heading: string, lang: string): string {
  const match = new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``).exec(section(doc, heading))
  if (match?.[1] === undefined) throw new Error(`no ${lang} block under ${heading}`)
  return match[1]
}

/** The first ```yaml block under a heading of the README (`## Usage`, `### Deploy with Helm`). */
export const snippet = (heading: string): string => block(readme, `${heading}\n`, 'yaml')

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
