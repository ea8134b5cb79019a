// The platform team's examples (issue 28), run as GitHub would run them: the compliance
// audit, preview environments per pull request with their weekly sweep, and a matrix deploy
// over GitHub environments.
import { describe, expect, it } from '@jest/globals'
import type { FakePlatform } from '../support/fake-platform.mjs'
import { runWorkflow, type WorkflowRun } from '../support/workflow-runner.mjs'
import {
  calls,
  DAY,
  expectNoLeaks,
  expectNothingLeft,
  secretsOf,
  settings,
  states,
} from './example-helpers.js'
import { revokeLine, useFakePlatform } from './helpers.js'

const platform = useFakePlatform()
const revokes = () =>
  platform()
    .requestLines()
    .filter((line) => line.includes('/revoke'))
    .sort()
const lines = (...tokens: { id: string }[]) => tokens.map((t) => revokeLine(t.id)).sort()
const step = (run: WorkflowRun, name: string) => run.steps.find((s) => s.name === name)

/** The examples' settings, with the environments these ones name. */
function withEnvironments(p: FakePlatform, ...names: string[]) {
  const base = settings(p)
  const environments = Object.fromEntries(
    names.map((name) => [name, { secrets: { KUBECONFIG: `kind: Config # ${name}\n` } }]),
  )
  return { ...base, environments: { ...base.environments, ...environments } }
}

describe('examples/compliance-audit.yml', () => {
  const AUDIT = 'Fail if an active token is older than 90 days'

  it('fails naming every active token over 90 days, the newest of its name too, and revokes nothing', async () => {
    const p = platform()
    const only = p.seed({ name: 'mediator-production', ageMs: 120 * DAY })
    const oldCi = p.seed({ name: 'ci-build-7', ageMs: 300 * DAY })
    const unreadable = p.seed({ name: 'mediator-legacy', createdAt: 'last spring' })
    const young = p.seed({ name: 'mediator-staging', ageMs: 10 * DAY })
    const revoked = p.seed({ name: 'mediator-old', ageMs: 400 * DAY, state: 'revoked' })
    const before = states(p)
    const run = await runWorkflow('examples/compliance-audit.yml', {
      ...settings(p),
      event: 'schedule',
    })

    expect(run.jobs).toEqual({ audit: 'failure' })
    expect(revokes()).toEqual([])
    expect(states(p)).toEqual(before)
    const audit = step(run, AUDIT)
    expect(audit?.outcome).toBe('failure')
    expect(audit?.outputs.count).toBe('2')
    const findings = JSON.parse(audit?.outputs.tokens ?? '[]') as { id: string }[]
    expect(findings.map((t) => t.id).sort()).toEqual([only.id, oldCi.id].sort())
    for (const named of [only, oldCi, unreadable]) expect(audit?.log).toContain(named.id)
    for (const spared of [young, revoked]) expect(audit?.log).not.toContain(spared.id)
    expect(audit?.summary).toContain('90d')
    expect(audit?.summary).not.toMatch(/would revoke/i)
    const secrets = secretsOf(p, run)
    expectNoLeaks(run, secrets)
    expectNothingLeft(run, secrets)
  })

  it('passes, saying so, when every active token is younger', async () => {
    const p = platform()
    p.seed({ name: 'mediator-production', ageMs: 30 * DAY })
    p.seed({ name: 'mediator-old', ageMs: 400 * DAY, state: 'revoked' })
    const run = await runWorkflow('examples/compliance-audit.yml', settings(p))

    expect(run.jobs).toEqual({ audit: 'success' })
    expect(step(run, AUDIT)?.outputs.count).toBe('0')
    expect(step(run, AUDIT)?.log).toMatch(/No active token .*older than 90d/)
    expect(revokes()).toEqual([])
  })
})

describe('examples/preview-environments.yml', () => {
  const CREATE = "Create or reuse the pull request's token"
  const pullRequest = (action: string, number: number) => ({
    event: 'pull_request',
    payload: {
      action,
      number,
      pull_request: { number, head: { repo: { full_name: 'your-org/app' } } },
    },
  })

  it('opened creates preview-pr-7, deployed from its file; a push reuses it', async () => {
    const p = platform()
    const neighbour = p.seed({ name: 'preview-pr-70', ageMs: DAY })
    const opened = await runWorkflow('examples/preview-environments.yml', {
      ...withEnvironments(p, 'preview'),
      ...pullRequest('opened', 7),
    })
    expect(opened.jobs).toEqual({ deploy: 'success', teardown: 'skipped', sweep: 'skipped' })
    const token = [...p.tokens.values()].find((t) => t.name === 'preview-pr-7')
    expect(token?.state).toBe('active')
    expect(step(opened, CREATE)?.outputs.reused).toBe('false')
    const [upgrade] = calls(opened, 'helm', 'upgrade')
    expect(upgrade?.args).toEqual(expect.arrayContaining(['preview-pr-7', '--wait']))
    expect(Object.values(upgrade?.files ?? {})).toEqual([token?.tokenValue])

    const pushed = await runWorkflow('examples/preview-environments.yml', {
      ...withEnvironments(p, 'preview'),
      ...pullRequest('synchronize', 7),
    })
    expect(pushed.jobs.deploy).toBe('success')
    expect(step(pushed, CREATE)?.outputs).toMatchObject({ reused: 'true', tokenId: token?.id })
    expect([...p.tokens.values()].filter((t) => t.name === 'preview-pr-7')).toHaveLength(1)
    expect(states(p)[neighbour.id]).toBe('active')
    for (const run of [opened, pushed]) {
      const secrets = secretsOf(p, run, [neighbour])
      expectNoLeaks(run, secrets)
      expectNothingLeft(run, secrets)
    }
  })

  it('closed removes the preview and revokes its tokens, not those of look-alike names', async () => {
    const p = platform()
    const mine = p.seed({ name: 'preview-pr-7', ageMs: 3 * DAY })
    const alike = [
      p.seed({ name: 'preview-pr-70', ageMs: 3 * DAY }),
      p.seed({ name: 'preview-pr-7-debug', ageMs: 3 * DAY }),
    ]
    const run = await runWorkflow('examples/preview-environments.yml', {
      ...withEnvironments(p, 'preview'),
      ...pullRequest('closed', 7),
    })

    expect(run.jobs).toEqual({ deploy: 'skipped', teardown: 'success', sweep: 'skipped' })
    expect(calls(run, 'helm', 'uninstall').map((c) => c.args[1])).toEqual(['preview-pr-7'])
    expect(revokes()).toEqual(lines(mine))
    for (const token of alike) expect(states(p)[token.id]).toBe('active')
    expectNoLeaks(run, secretsOf(p, run, [mine, ...alike]))
  })

  it('the weekly sweep revokes the tokens of closed pull requests with one name list', async () => {
    const p = platform()
    const closed = [
      p.seed({ name: 'preview-pr-7', ageMs: 9 * DAY }),
      p.seed({ name: 'preview-pr-9', ageMs: 2 * DAY }),
      p.seed({ name: 'preview-pr-9', ageMs: 8 * DAY }),
    ]
    const spared = [
      p.seed({ name: 'preview-pr-8', ageMs: 20 * DAY }),
      p.seed({ name: 'preview-pr-70', ageMs: 20 * DAY }),
      p.seed({ name: 'preview-pr-7-debug', ageMs: 20 * DAY }),
    ]
    const run = await runWorkflow('examples/preview-environments.yml', {
      ...withEnvironments(p, 'preview'),
      event: 'schedule',
      closedPullRequests: [7, 9, 12],
    })

    expect(run.jobs).toEqual({ deploy: 'skipped', teardown: 'skipped', sweep: 'success' })
    expect(revokes()).toEqual(lines(...closed))
    for (const token of spared) expect(states(p)[token.id]).toBe('active')
    expect(calls(run, 'gh', 'pr', 'list')).toHaveLength(1)
    const secrets = secretsOf(p, run, [...closed, ...spared])
    expectNoLeaks(run, secrets)
    expectNothingLeft(run, secrets)
  })

  it('the sweep sends nothing when no pull request is closed', async () => {
    const p = platform()
    const open = p.seed({ name: 'preview-pr-8', ageMs: 20 * DAY })
    const run = await runWorkflow('examples/preview-environments.yml', {
      ...withEnvironments(p, 'preview'),
      event: 'schedule',
    })

    expect(run.jobs.sweep).toBe('success')
    expect(step(run, 'Revoke their tokens')?.outcome).toBe('skipped')
    expect(p.requestLines()).toEqual([])
    expect(states(p)[open.id]).toBe('active')
  })
})

describe('examples/deploy-matrix.yml', () => {
  const CLUSTERS = ['staging', 'production-eu', 'production-us'] as const
  const leg = (cluster: string) => `deploy (${cluster})`

  function seedClusters(p: FakePlatform) {
    return Object.fromEntries(
      CLUSTERS.map((cluster) => [
        cluster,
        p.seed({ name: `mediator-${cluster}`, ageMs: 30 * DAY }),
      ]),
    )
  }
  const fresh = (p: FakePlatform, cluster: string, old: { id: string }) =>
    [...p.tokens.values()].find((t) => t.name === `mediator-${cluster}` && t.id !== old.id)

  it('deploys each cluster with a token of its own, then revokes that cluster’s older token', async () => {
    const p = platform()
    const old = seedClusters(p)
    const run = await runWorkflow('examples/deploy-matrix.yml', {
      ...withEnvironments(p, ...CLUSTERS),
      event: 'push',
    })

    expect(run.jobs).toEqual(
      Object.fromEntries([['deploy', 'success'], ...CLUSTERS.map((c) => [leg(c), 'success'])]),
    )
    for (const cluster of CLUSTERS) {
      const before = old[cluster]
      if (before === undefined) throw new Error(cluster)
      expect(states(p)[before.id]).toBe('revoked')
      expect(fresh(p, cluster, before)?.state).toBe('active')
      const upgrade = calls(run, 'helm', 'upgrade').find((c) =>
        c.args.includes(`--values=deploy/mediator/${cluster}.yaml`),
      )
      expect(Object.values(upgrade?.files ?? {})).toEqual([fresh(p, cluster, before)?.tokenValue])
    }
    // The kept token is the newest of a name in use: no invitation to revoke it too.
    for (const s of run.steps.filter((s) => s.name === "Revoke this cluster's older tokens"))
      expect(s.log).not.toContain('keep: 0')
    const secrets = secretsOf(p, run, Object.values(old))
    expectNoLeaks(run, secrets)
    expectNothingLeft(run, secrets)
  })

  it('a failed cluster keeps its old token and revokes its new one; the others go on', async () => {
    const p = platform()
    const old = seedClusters(p)
    const run = await runWorkflow('examples/deploy-matrix.yml', {
      ...withEnvironments(p, ...CLUSTERS),
      fail: 'helm upgrade production-eu',
    })

    expect(run.jobs[leg('production-eu')]).toBe('failure')
    expect(run.jobs[leg('staging')]).toBe('success')
    expect(run.jobs[leg('production-us')]).toBe('success')
    for (const cluster of CLUSTERS) {
      const before = old[cluster]
      if (before === undefined) throw new Error(cluster)
      const failed = cluster === 'production-eu'
      expect(states(p)[before.id]).toBe(failed ? 'active' : 'revoked')
      expect(fresh(p, cluster, before)?.state).toBe(failed ? 'revoked' : 'active')
    }
    const secrets = secretsOf(p, run, Object.values(old))
    expectNoLeaks(run, secrets)
    expectNothingLeft(run, secrets)
  })
})
