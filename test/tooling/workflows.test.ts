// The workflows and examples: pins, checkouts, scripts, what npm run lint:actions does not check.
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { ROOT } from '../support/runner.mjs'
import { WORKFLOWS, steps, uses, PINNED, isThirdParty, pins } from '../fixtures/workflows.js'

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

describe('checkouts, pins and the CI checks', () => {
  it.each(WORKFLOWS)('%s keeps no credentials after a checkout', (file) => {
    // Every checkout, in the workflows and in the examples users copy: nothing here pushes
    // with git (release.yml moves the major tag through the API), so no job leaves the
    // token in .git/config for the code it runs next.
    for (const step of steps(file).filter((s) => s.uses?.startsWith('actions/checkout@'))) {
      expect([file, step.with?.['persist-credentials']]).toEqual([file, false])
    }
  })

  it('has checkouts to check, in the workflows and in the examples', () => {
    const checkingOut = WORKFLOWS.filter((file) =>
      steps(file).some((step) => step.uses?.startsWith('actions/checkout@')),
    )
    expect(checkingOut).toEqual(
      expect.arrayContaining([
        '.github/workflows/ci.yml',
        '.github/workflows/release.yml',
        'examples/deploy-nomad.yml',
      ]),
    )
  })

  it('pins each action the same way everywhere: the examples as the workflows', () => {
    const all = WORKFLOWS.flatMap(pins)
    const fromWorkflows = new Map(
      all.filter(({ file }) => file.startsWith('.github/')).map(({ repo, pin }) => [repo, pin]),
    )
    const fromExamples = all.filter(({ file }) => file.startsWith('examples/'))
    // Not vacuous: the examples use actions the workflows use too (actions/checkout).
    expect(fromExamples.filter(({ repo }) => fromWorkflows.has(repo)).length).toBeGreaterThan(0)
    for (const { file, repo, pin } of fromExamples.filter(({ repo }) => fromWorkflows.has(repo))) {
      expect([file, repo, pin]).toEqual([file, repo, fromWorkflows.get(repo)])
    }
    // And one pin per action within the workflows, and within the examples.
    for (const group of [all.filter(({ file }) => file.startsWith('.github/')), fromExamples]) {
      const byRepo = new Map<string, Set<string>>()
      for (const { repo, pin } of group) byRepo.set(repo, (byRepo.get(repo) ?? new Set()).add(pin))
      for (const [repo, seen] of byRepo) expect([repo, [...seen]]).toEqual([repo, [[...seen][0]]])
    }
  })

  it("reads no jq output on Windows without dropping a CR (tr -d '\\r')", () => {
    const scripts = steps('.github/workflows/ci.yml').flatMap((step) =>
      (step.run ?? '').split('\n'),
    )
    const readingJq = scripts.filter((line) => line.includes('$(jq'))
    expect(readingJq.length).toBeGreaterThan(5)
    for (const line of readingJq) {
      // Each $(jq ...) on the line ends in | tr -d '\r').
      expect([line, line.split('$(jq').length - 1]).toEqual([
        line,
        line.split("| tr -d '\\r')").length - 1,
      ])
    }
  })

  it('checks the post step with a local action placed before the create it checks', () => {
    const ci = steps('.github/workflows/ci.yml')
    const check = ci.findIndex((step) => step.uses === './.github/actions/check-post-step')
    const ephemeral = ci.findIndex(
      (step) =>
        step.uses === './' && step.with?.revokeOnExit === true && step.with.writeTokenFile === true,
    )
    expect(check).toBeGreaterThan(-1)
    expect(ephemeral).toBeGreaterThan(check)
    // The name it checks is the name of the token created there.
    expect(ci[check]?.with?.name).toBe(ci[ephemeral]?.with?.name)
    // It gives every input of that action: npm run lint:actions refuses an unknown input or a
    // required one left out; this also holds for an optional one, should it get one.
    const action = parse(
      readFileSync(`${ROOT}/.github/actions/check-post-step/action.yml`, 'utf8'),
    ) as { inputs: Record<string, unknown> }
    expect(Object.keys(ci[check]?.with ?? {}).sort()).toEqual(Object.keys(action.inputs).sort())
  })

  it('runs cleanup through uses: ./, a dry run and a real one', () => {
    const cleanups = steps('.github/workflows/ci.yml').filter(
      (step) => step.uses === './' && step.with?.operation === 'cleanup',
    )
    expect(cleanups.map((step) => step.with?.dryRun ?? false)).toEqual([true, false])
  })

  it("runs the README's PowerShell snippet in pwsh on Windows, on the create's token file", () => {
    const readme = readFileSync(`${ROOT}/README.md`, 'utf8')
    const section = readme.slice(readme.indexOf('\n### On Windows\n'))
    const block = /```yaml\n([\s\S]*?)```/.exec(section)?.[1] ?? ''
    const snippet = (parse(block) as { shell?: string; run?: string }[]).find((s) => s.shell)
    expect(snippet?.shell).toBe('pwsh')
    // Its lines but the last, which stands for the user's own deploy.
    const lines = (snippet?.run ?? '').trimEnd().split('\n').slice(0, -1)
    expect(lines.length).toBeGreaterThan(1)
    const ci = steps('.github/workflows/ci.yml').find((step) => step.shell === 'pwsh')
    expect(ci?.if).toBe("runner.os == 'Windows'")
    expect((ci?.run ?? '').split('\n').slice(0, lines.length)).toEqual(lines)
    // It reads the file the create wrote (writeTokenFile), and checks it against the value.
    expect(ci?.env).toEqual({
      TOKEN_FILE: '${{ steps.ephemeral.outputs.tokenFile }}',
      TOKEN_VALUE: '${{ steps.ephemeral.outputs.tokenValue }}',
    })
  })
})
