// Destructive operations fail safe (issue 16): a typo, a default or a clock never cuts off a live mediator.
import { describe, expect, it } from '@jest/globals'
import type { FakePlatform } from '../support/fake-platform.mjs'
import { runAction } from '../support/runner.mjs'
import {
  AUTH,
  expectCleanFailure,
  LIST,
  revokeLine,
  runAgainst,
  useFakePlatform,
} from './helpers.js'

const platform = useFakePlatform()
const DAY = 86_400_000

function states(p: FakePlatform): Record<string, string> {
  return Object.fromEntries([...p.tokens.values()].map((t) => [t.id, t.state]))
}

describe('an input the action does not declare fails the step before any request (case 1)', () => {
  it('older_than instead of olderThan: nothing is revoked, and the message names the input meant', async () => {
    const young = platform().seed({ name: 'm-a', ageMs: 1 * DAY })
    const old = platform().seed({ name: 'm-b', ageMs: 40 * DAY })
    const run = await runAgainst(platform(), {
      operation: 'cleanup',
      name: 'm-*',
      older_than: '30d',
      keep: '0',
    })

    const message = expectCleanFailure(run)
    expect(message).toMatch(
      /^Input 'older_than' is not an input of this action: did you mean 'olderThan'\?/,
    )
    expect(platform().requests).toEqual([])
    expect(states(platform())).toEqual({ [young.id]: 'active', [old.id]: 'active' })
  })

  it('revoke-on-exit on a create: no token is created that nothing would revoke', async () => {
    const run = await runAgainst(platform(), {
      operation: 'create',
      name: 'pr-1',
      'revoke-on-exit': 'true',
    })
    expect(expectCleanFailure(run)).toContain(
      "Input 'revoke-on-exit' is not an input of this action: did you mean 'revokeOnExit'?",
    )
    expect(platform().requests).toEqual([])
    expect(platform().tokens.size).toBe(0)
  })

  it('the same inputs, spelt as declared, run', async () => {
    const old = platform().seed({ name: 'm-b', ageMs: 40 * DAY })
    platform().seed({ name: 'm-b', ageMs: 1 * DAY })
    const run = await runAgainst(platform(), {
      operation: 'cleanup',
      name: 'm-*',
      olderThan: '30d',
    })
    expect(run.exitCode).toBe(0)
    expect(platform().requestLines()).toEqual([AUTH, LIST, revokeLine(old.id)])
  })
})

describe('keep defaults to 1: the newest active token of a name stays (case 2)', () => {
  it('olderThan alone keeps the newest active token of prod, 90 days old, with no word of keep: 0', async () => {
    const live = platform().seed({ name: 'prod', ageMs: 90 * DAY })
    const older = platform().seed({ name: 'prod', ageMs: 120 * DAY })
    const run = await runAgainst(platform(), { operation: 'cleanup', olderThan: '30d' })

    expect(run.exitCode).toBe(0)
    expect(states(platform())).toEqual({ [live.id]: 'active', [older.id]: 'revoked' })
    // The words: the golden messages of the unit tests (test/fixtures/golden.ts). prod is a
    // name in use (it had two tokens): keep: 0 is not offered for its newest.
    expect(run.log).toContain(
      `Kept gateway token 'prod' (${live.id}), 90d old: the newest of its name (keep: 1).\n`,
    )
    expect(run.log + run.summary).not.toContain('keep: 0')
    expect(run.summary).toMatch(
      new RegExp(`\\| prod \\| <code>${live.id}</code> \\| 90d \\| .*keep: 1`),
    )
  })

  it('a pattern that keeps the only token of a name (pr-123) says keep: 0 revokes it too', async () => {
    const once = platform().seed({ name: 'pr-123', ageMs: 3 * DAY })
    const run = await runAgainst(platform(), { operation: 'cleanup', name: 'pr-*' })

    expect(run.exitCode).toBe(0)
    expect(states(platform())).toEqual({ [once.id]: 'active' })
    expect(run.log).toContain(
      `Kept gateway token 'pr-123' (${once.id}), 3d old: the newest of its name (keep: 1); the only token its name has: keep: 0 revokes it too.`,
    )
  })

  it('a dry run names the token it keeps the same way', async () => {
    const live = platform().seed({ name: 'prod', ageMs: 90 * DAY })
    const run = await runAgainst(platform(), {
      operation: 'cleanup',
      olderThan: '30d',
      dryRun: 'true',
    })
    expect(run.exitCode).toBe(0)
    expect(run.outputs.count).toBe('0')
    expect(run.log).toContain(
      `Kept gateway token 'prod' (${live.id}), 90d old: the newest of its name`,
    )
    expect(run.summary).toContain('### Gateway token cleanup (dry run)')
    expect(run.summary).toContain(`<code>${live.id}</code>`)
  })

  it('keep: 0, written out, revokes it', async () => {
    const live = platform().seed({ name: 'prod', ageMs: 90 * DAY })
    const run = await runAgainst(platform(), { operation: 'cleanup', olderThan: '30d', keep: '0' })
    expect(run.exitCode).toBe(0)
    expect(states(platform())).toEqual({ [live.id]: 'revoked' })
  })
})

describe('names that are not text are never revoked by age or by keep (case 4)', () => {
  // A platform's records whose name is a number, an array or null: read as text they would
  // all be '', one name, and keep would rank them together.
  const seedOdd = () =>
    [42, ['prod'], null].map((name) =>
      platform().seed({ name: name as unknown as string, ageMs: 90 * DAY }),
    )

  it.each(['1', '0'])('with keep %s, none of them is revoked, and each is named', async (keep) => {
    const odd = seedOdd()
    const named = platform().seed({ name: 'ci-a', ageMs: 90 * DAY })
    const run = await runAgainst(platform(), { operation: 'cleanup', olderThan: '30d', keep })

    expect(run.exitCode).toBe(0)
    expect(platform().requestLines()).toEqual(
      keep === '0' ? [AUTH, LIST, revokeLine(named.id)] : [AUTH, LIST],
    )
    for (const token of odd) {
      expect(platform().tokens.get(token.id)?.state).toBe('active')
      expect(run.warnings.some((w) => w.includes(`(${token.id}) is not revoked`))).toBe(true)
    }
  })
})

describe("ages are measured on the platform's clock (case 3)", () => {
  const HOUR = 3_600_000

  it("with the runner's clock 2 days ahead, olderThan 1d leaves tokens 1 to 6 hours old, and warns", async () => {
    platform().clockOffsetMs = -2 * DAY
    const fresh = [1, 6].map((hours, i) => platform().seed({ name: `m-${i}`, ageMs: hours * HOUR }))
    const old = platform().seed({ name: 'm-old', ageMs: 3 * DAY })
    const run = await runAgainst(platform(), { operation: 'cleanup', olderThan: '1d', keep: '0' })

    expect(run.exitCode).toBe(0)
    expect(states(platform())).toEqual({
      [fresh[0]?.id ?? '']: 'active',
      [fresh[1]?.id ?? '']: 'active',
      [old.id]: 'revoked',
    })
    expect(run.log).toContain(`Revoked gateway token 'm-old' (${old.id}), 3d old.`)
    expect(run.warnings).toEqual([
      expect.stringMatching(/^The runner's clock is 2d ahead of the platform's .*Date header/),
    ])
    expect(run.summary).toContain("ages are measured on the platform's clock")
  })

  it("with the runner's clock 2 days behind, olderThan 1d takes a token 3 days old", async () => {
    platform().clockOffsetMs = 2 * DAY
    const old = platform().seed({ name: 'm-old', ageMs: 3 * DAY })
    const fresh = platform().seed({ name: 'm-new', ageMs: 6 * HOUR })
    const run = await runAgainst(platform(), { operation: 'cleanup', olderThan: '1d', keep: '0' })
    expect(run.exitCode).toBe(0)
    expect(states(platform())).toEqual({ [old.id]: 'revoked', [fresh.id]: 'active' })
    expect(run.warnings).toEqual([expect.stringContaining("The runner's clock is 2d behind")])
  })

  it("without a Date header, uses the runner's clock and says so; no warning within 5 minutes", async () => {
    platform().sendDate = false
    platform().seed({ name: 'm-old', ageMs: 3 * DAY })
    const run = await runAgainst(platform(), { operation: 'cleanup', olderThan: '1d', keep: '0' })
    expect(run.exitCode).toBe(0)
    expect(run.log).toContain(
      "The platform's answers carry no Date header: ages are measured on the runner's clock.",
    )
    platform().sendDate = true
    platform().seed({ name: 'm-older', ageMs: 4 * DAY })
    const inStep = await runAgainst(platform(), {
      operation: 'cleanup',
      olderThan: '1d',
      keep: '0',
    })
    expect(inStep.warnings).toEqual([])
    expect(inStep.log).not.toContain('clock')
  })
})

describe('revokeOnExit: failure (case 7)', () => {
  const create = () => ({
    ...platform().connectionInputs(),
    operation: 'create',
    name: 'mediator-prod',
    revokeOnExit: 'failure',
  })

  it.each(['failure', 'cancelled'] as const)(
    'the post step revokes the new token when the job status is %s, read from ${{ job.status }}',
    async (jobStatus) => {
      const inputs = create()
      const main = await runAction({ inputs })
      expect(main.exitCode).toBe(0)
      expect(main.log).toMatch(
        /It will be revoked at the end of the job if .*\(revokeOnExit: failure\)/,
      )
      const id = main.outputs.tokenId ?? ''
      // The runner evaluates action.yml's defaults again for the post step.
      const post = await runAction({ step: 'post', inputs, state: main.state, jobStatus })
      expect(post.exitCode).toBe(0)
      expect(post.log).toContain(`revoking the gateway token 'mediator-prod' (${id})`)
      expect(platform().tokens.get(id)?.state).toBe('revoked')
    },
  )

  it('the post step keeps the new token, sending nothing, when the job succeeded', async () => {
    const inputs = create()
    const main = await runAction({ inputs })
    const id = main.outputs.tokenId ?? ''
    const sent = platform().requests.length
    const post = await runAction({ step: 'post', inputs, state: main.state, jobStatus: 'success' })
    expect(post.exitCode).toBe(0)
    expect(post.log).toContain(
      `The job succeeded: the gateway token 'mediator-prod' (${id}) stays active (revokeOnExit: failure).`,
    )
    expect(platform().requests.length).toBe(sent)
    expect(platform().tokens.get(id)?.state).toBe('active')
  })
})
