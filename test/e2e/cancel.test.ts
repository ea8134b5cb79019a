// A cancelled step reports what it did (issue 18, case 3): the runner sends SIGINT, then SIGTERM 7.5 s later.
import { describe, expect, it } from '@jest/globals'
import type { FakePlatform } from '../support/fake-platform.mjs'
import type { ActionRun } from '../support/runner.mjs'
import { expectCleanFailure, expectNoLeaks, runAgainst, useFakePlatform } from './helpers.js'

const platform = useFakePlatform()

/** The ids of the tokens the platform holds revoked. */
const revokedIds = (p: FakePlatform) =>
  [...p.tokens.values()].filter((t) => t.state === 'revoked').map((t) => t.id)

/** Revoke requests the platform received. */
const revokesSent = (p: FakePlatform) =>
  p.requestLines('api').filter((line) => line.includes('/revoke')).length

/** 20 tokens for a cleanup of `ci-*` with keep: 0 to revoke. */
function seedTwenty(p: FakePlatform) {
  for (let i = 0; i < 20; i++) p.seed({ name: `ci-${i}`, ageMs: (i + 1) * 60_000 })
}

const CLEANUP = { operation: 'cleanup', name: 'ci-*', keep: '0', concurrency: '2' }

/** The signal the runner sent, with when. */
const sent = (run: ActionRun, signal: string) => run.signals.find((s) => s.signal === signal)

describe('a cleanup cancelled midway (SIGINT)', () => {
  it('lets the revokes in flight end, then reports every token it revoked and fails', async () => {
    seedTwenty(platform())
    platform().latencyMs = 100
    const run = await runAgainst(platform(), CLEANUP, {
      cancel: { when: () => revokedIds(platform()).length >= 5 },
    })
    const revoked = revokedIds(platform())
    // What was in flight at the cancel ended; nothing was sent after it.
    expect(revokesSent(platform())).toBe(revoked.length)
    expect(revoked.length).toBeGreaterThanOrEqual(5)
    expect(revoked.length).toBeLessThan(20)
    // The words: the golden messages of the unit tests (test/fixtures/golden.ts).
    const message = expectCleanFailure(run)
    expect(message).toMatch(/^cleanup failed: The step was cancelled \(SIGINT\): /)
    expect(message).toContain(
      `${revoked.length} tokens revoked, ${20 - revoked.length} left active`,
    )
    expect(message).toContain('run the cleanup again')
    // The outputs, the log and the summary name each token revoked, and only those.
    expect(run.outputs.count).toBe(String(revoked.length))
    const listed = (JSON.parse(run.outputs.tokens ?? '[]') as { id: string }[]).map((t) => t.id)
    expect(listed.sort()).toEqual([...revoked].sort())
    for (const id of revoked) {
      expect(run.log).toMatch(new RegExp(`Revoked gateway token 'ci-\\d+' \\(${id}\\)`))
      expect(run.summary).toContain(id)
    }
    expect(run.summary).toContain('#### Left active: the step was cancelled')
    expect(run.log).toContain('Cancelled (SIGINT): no more requests start')
    // Ended before the runner's SIGTERM.
    expect(run.signals.map((s) => s.signal)).toEqual(['SIGINT'])
    expectNoLeaks(run, platform().secrets())
  })

  it('cuts off revokes that do not end within 5 s, and reports them as maybe revoked, before SIGTERM', async () => {
    seedTwenty(platform())
    // Slow enough that the revokes are still going when the hang begins, on a busy machine too.
    platform().latencyMs = 100
    let hanging = false
    const run = await runAgainst(platform(), CLEANUP, {
      cancel: {
        when: () => {
          // After 3 revokes the platform stops answering; cancelled once 2 hang.
          if (!hanging && revokedIds(platform()).length >= 3) {
            hanging = true
            platform().fail({ path: /\/revoke$/, drop: 'hang', times: Infinity })
          }
          return hanging && revokesSent(platform()) >= revokedIds(platform()).length + 2
        },
      },
    })
    const sigint = sent(run, 'SIGINT')?.atMs ?? NaN
    // Cut at the end of the 5 s grace: the step ended after it, and before SIGTERM.
    expect(run.endedAtMs - sigint).toBeGreaterThanOrEqual(5_000)
    expect(run.signals.map((s) => s.signal)).toEqual(['SIGINT'])
    const message = expectCleanFailure(run)
    expect(message).toMatch(
      /^cleanup failed: The step was cancelled \(SIGINT\): \d+ tokens revoked/,
    )
    // The two cut off are neither revoked nor left: whether they took effect is unknown, and
    // after a cancel no list is sent to tell.
    expect(message).toMatch(
      /2 tokens may have been revoked or not: in flight when the step was cancelled, and no list could tell; list the tokens to see: 'ci-\d+' \(\S+\), 'ci-\d+' \(\S+\)\./,
    )
    expect(run.summary).toContain('#### Revoked or not: unknown')
    expect(run.outputs.count).toBe(String(revokedIds(platform()).length))
    expect(
      platform()
        .requestLines('api')
        .filter((line) => line === 'GET /api/tokens'),
    ).toHaveLength(1)
  })
})

describe('a cleanup cancelled with SIGTERM', () => {
  it('cuts off what is in flight at once and reports', async () => {
    seedTwenty(platform())
    // Slow enough that the revokes are still going when the hang begins, on a busy machine too.
    platform().latencyMs = 100
    let hanging = false
    const run = await runAgainst(platform(), CLEANUP, {
      cancel: {
        first: 'SIGTERM',
        when: () => {
          if (!hanging && revokedIds(platform()).length >= 3) {
            hanging = true
            platform().fail({ path: /\/revoke$/, drop: 'hang', times: Infinity })
          }
          return hanging && revokesSent(platform()) >= revokedIds(platform()).length + 2
        },
      },
    })
    const sigterm = sent(run, 'SIGTERM')?.atMs ?? NaN
    expect(run.endedAtMs - sigterm).toBeLessThan(2_500)
    expect(run.signals.map((s) => s.signal)).toEqual(['SIGTERM'])
    expect(expectCleanFailure(run)).toMatch(
      /^cleanup failed: The step was cancelled \(SIGTERM\): \d+ tokens revoked, \d+ left active/,
    )
    expect(run.outputs.count).toBe(String(revokedIds(platform()).length))
  })
})
