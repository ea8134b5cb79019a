// examples/nightly-cleanup.yml, and examples/nightly-cleanup-reusable.yml calling this
// repository's reusable workflow .github/workflows/cleanup.yml, as GitHub would run them.
import { describe, expect, it } from '@jest/globals'
import { parse, stringify } from 'yaml'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { PROJECT_ID, type FakePlatform } from '../support/fake-platform.mjs'
import { ROOT } from '../support/runner.mjs'
import { runWorkflow, runWorkflowText, type WorkflowRun } from '../support/workflow-runner.mjs'
import {
  DAY,
  expectNoLeaks,
  expectNothingLeft,
  secretsOf,
  settings,
  states,
} from './example-helpers.js'
import { AUTH, LIST, revokeLine, useFakePlatform } from './helpers.js'

const platform = useFakePlatform()
const HOUR = 3_600_000

/**
 * What pipelines left behind, and what the cleanups must spare: pull request tokens (one
 * name each run) old and young, deploy tokens of three names old and new, a token of no
 * pattern, and one revoked already.
 */
function seedTokens(p: FakePlatform) {
  const seed = (name: string, ageMs: number, state = 'active') => p.seed({ name, ageMs, state })
  const tokens = {
    prOld: seed('pr-101-run-1', 3 * DAY),
    prOlder: seed('pr-101-run-2', 2 * DAY),
    prYoung: seed('pr-102-run-5', 2 * HOUR),
    prRevoked: seed('pr-103-run-9', 30 * DAY, 'revoked'),
    prodNew: seed('mediator-production', 5 * DAY),
    prodOld: seed('mediator-production', 100 * DAY),
    prodOlder: seed('mediator-production', 120 * DAY),
    prodOldest: seed('mediator-production', 200 * DAY),
    dockerA: seed('mediator-docker', 95 * DAY),
    dockerB: seed('mediator-docker', 150 * DAY),
    nomad: seed('mediator-nomad', 400 * DAY),
    ci: seed('ci-build-7', 300 * DAY),
  }
  return { tokens, before: states(p) }
}

/** The revoke requests, sorted: a cleanup sends them concurrently. */
const revokes = () =>
  platform()
    .requestLines()
    .filter((line) => line.includes('/revoke'))
    .sort()

/** The ids each cleanup step revoked (or, in a dry run, would have), sorted. */
function selected(run: WorkflowRun): string[][] {
  return run.steps
    .filter((s) => s.stage === 'main')
    .map((s) => (JSON.parse(s.outputs.tokens ?? '[]') as { id: string }[]).map((t) => t.id).sort())
}

const ids = (...tokens: { id: string }[]) => tokens.map((t) => t.id).sort()

describe('examples/nightly-cleanup.yml', () => {
  it.each([
    ['the nightly schedule', { event: 'schedule' }],
    ['a run by hand with dryRun: false', { inputs: { dryRun: false } }],
  ])(
    '%s revokes old pull request tokens (keep: 0) and old deploy tokens past the two newest',
    async (_, how) => {
      const { tokens: t, before } = seedTokens(platform())
      const run = await runWorkflow('examples/nightly-cleanup.yml', {
        ...settings(platform()),
        ...how,
      })

      expect(run.jobs).toEqual({ cleanup: 'success' })
      expect(selected(run)).toEqual([ids(t.prOld, t.prOlder), ids(t.prodOlder, t.prodOldest)])
      const revoked = [t.prOld, t.prOlder, t.prodOlder, t.prodOldest]
      expect(revokes()).toEqual(revoked.map((r) => revokeLine(r.id)).sort())
      // Nothing else touched: the young, the two newest of each deploy name, other names.
      const after = { ...before, ...Object.fromEntries(revoked.map((r) => [r.id, 'revoked'])) }
      expect(states(platform())).toEqual(after)
      expect(run.steps[1]?.inputs).toMatchObject({ keep: '2', concurrency: '8', retries: '5' })
      expect(run.steps[1]?.log).toContain(
        `Kept gateway token 'mediator-production' (${t.prodOld.id}), 100d old: one of the 2 newest of its name (keep: 2)`,
      )
      const secrets = secretsOf(platform(), run, Object.values(t))
      expectNoLeaks(run, secrets)
      expectNothingLeft(run, secrets)
    },
  )

  it('a run by hand is a dry run by default: the summary lists the same tokens, none is revoked', async () => {
    const { tokens: t, before } = seedTokens(platform())
    const run = await runWorkflow('examples/nightly-cleanup.yml', settings(platform()))

    expect(run.jobs).toEqual({ cleanup: 'success' })
    expect(run.steps.filter((s) => s.stage === 'main').map((s) => s.inputs.dryRun)).toEqual([
      'true',
      'true',
    ])
    expect(selected(run)).toEqual([ids(t.prOld, t.prOlder), ids(t.prodOlder, t.prodOldest)])
    expect(platform().requestLines()).toEqual([AUTH, LIST, AUTH, LIST])
    expect(states(platform())).toEqual(before)
    const [pr, deploy] = run.steps.map((s) => s.summary ?? '')
    expect(pr).toContain('### Gateway token cleanup (dry run)')
    for (const token of [t.prOld, t.prOlder]) expect(pr).toContain(token.id)
    for (const token of [t.prodOlder, t.prodOldest]) expect(deploy).toContain(token.id)
    const secrets = secretsOf(platform(), run, Object.values(t))
    expectNoLeaks(run, secrets)
    expectNothingLeft(run, secrets)
  })
})

describe('examples/nightly-cleanup-reusable.yml, calling .github/workflows/cleanup.yml', () => {
  it.each(['schedule', 'workflow_dispatch'])(
    'on %s, the called job revokes only the old pull request tokens, the newest of each name too',
    async (event) => {
      const { tokens: t, before } = seedTokens(platform())
      const run = await runWorkflow('examples/nightly-cleanup-reusable.yml', {
        ...settings(platform()),
        event,
      })

      expect(run.jobs).toEqual({ 'cleanup / cleanup': 'success', cleanup: 'success' })
      // The caller's with: reached the step through the typed inputs of workflow_call.
      expect(run.steps[0]?.inputs).toMatchObject({
        operation: 'cleanup',
        name: 'pr-*',
        olderThan: '1d',
        keep: '0',
        dryRun: 'false',
        expectedProjectId: PROJECT_ID,
        clientId: platform().clientId,
        clientSecret: platform().clientSecret,
      })
      expect(selected(run)).toEqual([ids(t.prOld, t.prOlder)])
      expect(revokes()).toEqual([revokeLine(t.prOld.id), revokeLine(t.prOlder.id)].sort())
      const after = { ...before, [t.prOld.id]: 'revoked', [t.prOlder.id]: 'revoked' }
      expect(states(platform())).toEqual(after)
      const secrets = secretsOf(platform(), run, Object.values(t))
      expectNoLeaks(run, secrets)
      expectNothingLeft(run, secrets)
    },
  )

  it("hands the reusable workflow's count output to the caller's later jobs", async () => {
    seedTokens(platform())
    const path = join(ROOT, 'examples/nightly-cleanup-reusable.yml')
    const workflow = parse(readFileSync(path, 'utf8')) as { jobs: Record<string, unknown> }
    workflow.jobs.report = {
      needs: 'cleanup',
      'runs-on': 'ubuntu-latest',
      steps: [
        {
          run: 'echo "count=$COUNT" >> "$GITHUB_OUTPUT"',
          id: 'r',
          env: { COUNT: '${{ needs.cleanup.outputs.count }}' },
        },
      ],
    }
    const run = await runWorkflowText(stringify(workflow), 'caller.yml', settings(platform()))
    expect(run.jobs.report).toBe('success')
    expect(run.steps.find((s) => s.job === 'report')?.outputs).toEqual({ count: '2' })
  })

  describe('environment secrets', () => {
    /** The example, its with: given `environment`, run with the API client in `production` only. */
    async function inEnvironment(environment?: string) {
      const path = join(ROOT, 'examples/nightly-cleanup-reusable.yml')
      const caller = parse(readFileSync(path, 'utf8')) as {
        jobs: { cleanup: { with: Record<string, unknown> } }
      }
      if (environment !== undefined) caller.jobs.cleanup.with.environment = environment
      const base = settings(platform())
      // The API client is in the production environment only, under the names the caller
      // reads and under those the reusable workflow reads.
      const { PLATFORM_CLIENT_ID: id, PLATFORM_CLIENT_SECRET: secret, ...others } = base.secrets
      const secrets = { PLATFORM_CLIENT_ID: id, PLATFORM_CLIENT_SECRET: secret }
      const production = { secrets: { ...secrets, clientId: id, clientSecret: secret } }
      return runWorkflowText(stringify(caller), 'caller.yml', {
        ...base,
        secrets: others,
        environments: { ...base.environments, production },
      })
    }

    it('the calling job cannot read them: what it passes from an environment arrives empty', async () => {
      seedTokens(platform())
      const run = await inEnvironment()
      expect(run.jobs.cleanup).toBe('failure')
      expect(run.steps[0]?.inputs.clientId).toBe('')
      expect(platform().requestLines()).toEqual([])
    })

    it('with environment: in the called job, that environment’s clientId and clientSecret are used', async () => {
      const { tokens: t } = seedTokens(platform())
      const run = await inEnvironment('production')
      expect(run.jobs.cleanup).toBe('success')
      expect(run.steps[0]?.inputs).toMatchObject({
        clientId: platform().clientId,
        clientSecret: platform().clientSecret,
      })
      expect(revokes()).toEqual([revokeLine(t.prOld.id), revokeLine(t.prOlder.id)].sort())
    })
  })
})
