// wording: why a cleanup fails the step (totalTimeout ran out, tokens not revoked) and the
// one sentence that says what it did.
import { describe, expect, it } from '@jest/globals'
import type { CleanupResult } from '../../../src/operations/cleanup.js'
import type { CleanupTask } from '../../../src/inputs/task.js'
import {
  ageClockNote,
  allRevoked,
  cleanupOutcome,
  revokedElsewhereNote,
  stepFailure,
  timeoutFailure,
} from '../../../src/report/wording.js'
import { token } from '../../fixtures/token-api.js'

const TASK: CleanupTask = {
  operation: 'cleanup',
  name: 'ci-*',
  olderThan: undefined,
  keep: 0,
  dryRun: false,
  concurrency: 4,
}
const tokens = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => token(`${prefix}${i}`, `ci-${prefix}${i}`, 40))
function result(fields: Partial<CleanupResult> = {}): CleanupResult {
  return {
    operation: 'cleanup',
    task: TASK,
    revoked: [],
    kept: [],
    notRevoked: [],
    left: [],
    revokedElsewhere: [],
    ages: { by: 'platform', skewMs: 0 },
    stop: { by: 'totalTimeout', totalMs: 900_000 },
    now: Date.UTC(2026, 10, 22),
    ...fields,
  }
}

describe('timeoutFailure', () => {
  it('names totalTimeout, its value, how many were revoked and how many were left', () => {
    const cut = result({
      revoked: tokens('r', 3),
      left: tokens('l', 7),
      stop: { by: 'totalTimeout', totalMs: 60_000 },
    })
    expect(timeoutFailure(cut)).toBe(
      'totalTimeout (60 s) ran out: 3 tokens revoked, 7 left active; run the cleanup again to revoke them.',
    )
  })

  it('names the cancel and its signal when a cancel cut the cleanup short', () => {
    const cut = result({
      revoked: tokens('r', 5),
      left: tokens('l', 15),
      stop: { by: 'cancel', signal: 'SIGINT' },
    })
    expect(timeoutFailure(cut)).toBe(
      'The step was cancelled (SIGINT): 5 tokens revoked, 15 left active; run the cleanup again to revoke them.',
    )
    expect(cleanupOutcome(cut)).toBe('Revoked 5 tokens; 15 left when the step was cancelled.')
  })

  it('counts one token as one, and none revoked as 0 tokens', () => {
    expect(timeoutFailure(result({ revoked: tokens('r', 1), left: tokens('l', 1) }))).toBe(
      'totalTimeout (900 s) ran out: 1 token revoked, 1 left active; run the cleanup again to revoke them.',
    )
    expect(timeoutFailure(result({ left: tokens('l', 2) }))).toBe(
      'totalTimeout (900 s) ran out: 0 tokens revoked, 2 left active; run the cleanup again to revoke them.',
    )
  })

  it('says nothing when no token was left, however many were revoked', () => {
    expect(timeoutFailure(result({ revoked: tokens('r', 5) }))).toBeUndefined()
  })
})

describe('stepFailure', () => {
  it('fails a cleanup cut short, naming totalTimeout first, then the tokens not revoked', () => {
    const cut = result({
      revoked: tokens('r', 1),
      notRevoked: [{ token: token('n0', 'ci-n0', 40), reason: 'denied.' }],
      left: tokens('l', 2),
    })
    expect(stepFailure(cut)).toBe(
      'totalTimeout (900 s) ran out: 1 token revoked, 2 left active; run the cleanup again to revoke them. ' +
        "1 of 2 tokens was not revoked (the other 1 was): 'ci-n0' (n0): denied.",
    )
  })

  it('does not fail a cleanup that revoked everything it chose', () => {
    expect(stepFailure(result({ revoked: tokens('r', 2) }))).toBeUndefined()
  })

  it('never fails another operation on its result', () => {
    const task = { operation: 'list', name: undefined, state: 'all' } as const
    expect(stepFailure({ operation: 'list', tokens: [], total: 0, task })).toBeUndefined()
  })
})

describe('cleanupOutcome', () => {
  it('says how many were left when totalTimeout ran out', () => {
    const cut = result({
      revoked: tokens('r', 2),
      notRevoked: [{ token: token('n0', 'ci-n0', 40), reason: 'denied.' }],
      left: tokens('l', 3),
    })
    expect(cleanupOutcome(cut)).toBe(
      'Revoked 2 tokens; 1 could not be revoked; 3 left when totalTimeout ran out.',
    )
  })

  it('does not mention totalTimeout when nothing was left', () => {
    expect(cleanupOutcome(result({ revoked: tokens('r', 1) }))).toBe('Revoked 1 token.')
  })
})

describe('ageClockNote', () => {
  const MINUTE = 60_000
  it('says nothing while the two clocks are within 5 minutes, on either side', () => {
    for (const skewMs of [0, 5 * MINUTE, -5 * MINUTE])
      expect(ageClockNote(result({ ages: { by: 'platform', skewMs } }))).toBeUndefined()
  })

  it("warns past 5 minutes, saying which way the runner's clock is off", () => {
    expect(ageClockNote(result({ ages: { by: 'platform', skewMs: 5 * MINUTE + 60_000 } }))).toBe(
      "The runner's clock is 6m behind the platform's (by the Date header of its list answer): ages are measured on the platform's clock.",
    )
    expect(ageClockNote(result({ ages: { by: 'platform', skewMs: -2 * 86_400_000 } }))).toBe(
      "The runner's clock is 2d ahead of the platform's (by the Date header of its list answer): ages are measured on the platform's clock.",
    )
  })

  it("says when the ages are on the runner's clock", () => {
    expect(ageClockNote(result({ ages: { by: 'runner' } }))).toBe(
      "The platform's answers carry no Date header: ages are measured on the runner's clock.",
    )
  })
})

describe('tokens revoked by someone else meanwhile (case 5)', () => {
  const elsewhere = [
    token('e1', 'ci-e1', 45, {
      state: 'revoked',
      revokedAt: '2026-11-22T11:00:00Z',
      revokedBy: 'u-2',
    }),
  ]

  it('are counted as revoked, apart from the ones this step revoked', () => {
    const done = result({ revoked: tokens('r', 2), revokedElsewhere: elsewhere })
    expect(cleanupOutcome(done)).toBe(
      'Revoked 2 tokens; 1 more had been revoked by someone else meanwhile.',
    )
    expect(stepFailure(done)).toBeUndefined()
    expect(allRevoked(done).map((t) => t.id)).toEqual(['r0', 'r1', 'e1'])
  })

  it('count among the others when some tokens were not revoked', () => {
    const failed = result({
      revoked: tokens('r', 1),
      revokedElsewhere: elsewhere,
      notRevoked: [{ token: token('n', 'ci-n', 50), reason: 'answered 403.' }],
    })
    expect(stepFailure(failed)).toMatch(/^1 of 3 tokens was not revoked \(the other 2 were\): /)
  })

  it('are named with when and by whom', () => {
    expect(revokedElsewhereNote(elsewhere[0] ?? token('x', 'x', 0))).toBe(
      'was revoked by someone else meanwhile at 2026-11-22T11:00:00Z by u-2 (another job, or a person): counted as revoked',
    )
    expect(revokedElsewhereNote(token('y', 'y', 0, { state: 'revoked' }))).toBe(
      'was revoked by someone else meanwhile (another job, or a person): counted as revoked',
    )
  })
})
