// The README's snippets, taken out of it and made into workflows a test can run.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse, stringify } from 'yaml'
import { ROOT } from '../support/runner.mjs'

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')

/** The first ```yaml block under a heading of the README (`## Usage`, `### Deploy with Helm`). */
export function snippet(heading: string): string {
  const section = readme.slice(readme.indexOf(`\n${heading}\n`))
  const match = /```yaml\n([\s\S]*?)```/.exec(section)
  if (match?.[1] === undefined) throw new Error(`no yaml block under ${heading}`)
  return match[1]
}

/** The connection inputs the snippets leave out ("as in Usage"), from the Usage snippet. */
function usageInputs(): Record<string, string> {
  const usage = parse(snippet('## Usage')) as unknown
  const [step] = usage as { with: Record<string, string> }[]
  const { clientId, clientSecret, baseUrl, authUrl } = step?.with ?? {}
  return { clientId, clientSecret, baseUrl, authUrl } as Record<string, string>
}

/** A job around a snippet of steps, with the inputs it leaves out put back, run `on` an event. */
export function asWorkflow(
  steps: string,
  on: Record<string, unknown> = { workflow_dispatch: {} },
): string {
  const parsed = parse(steps) as { uses?: string; with?: Record<string, unknown> }[]
  for (const step of parsed) {
    if (step.uses?.startsWith('your-org/gateway-token-action@') === true) {
      step.with = { ...step.with, ...usageInputs() }
    }
  }
  return stringify({ on, jobs: { snippet: { 'runs-on': 'ubuntu-latest', steps: parsed } } })
}

/** A snippet that is a whole `jobs:` map, with its inputs put back, as a workflow. */
export function jobsAsWorkflow(jobs: string): string {
  const parsed = parse(jobs) as {
    jobs: Record<string, { steps?: { uses?: string; with?: Record<string, unknown> }[] }>
  }
  for (const job of Object.values(parsed.jobs)) {
    for (const step of job.steps ?? []) {
      if (step.uses?.startsWith('your-org/gateway-token-action@') === true) {
        step.with = { ...step.with, ...usageInputs() }
      }
    }
  }
  return stringify({ on: { workflow_dispatch: {} }, ...parsed })
}
