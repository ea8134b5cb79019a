// step-failure: why an operation done, written out in full, still fails the step: a cleanup
// that totalTimeout (or a cancel) cut short, or that could not revoke some tokens.
import { describe, expect, it } from '@jest/globals'
import { cleanupFailure, stepFailure, timeoutFailure } from '../../../../src/report/wording.js'
import {
  cleanedUp as result,
  cleanupTask,
  created,
  createTask,
  done,
  listed,
} from '../../../fixtures/done.js'
import { token } from '../../../fixtures/token-api.js'

const TASK = cleanupTask({ name: ['ci-*'], olderThan: undefined })
const tokens = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => token(`${prefix}${i}`, `ci-${prefix}${i}`, 40))

// The words of each failure: test/unit/report/wording/golden-messages.test.ts.
/** A cut short cleanup's failure says each of `facts`, and to run the cleanup again. */
function expectCutShort(failure: string | undefined, ...facts: string[]) {
  for (const fact of facts) expect(failure).toContain(fact)
  expect(failure).toContain('run the cleanup again')
}

describe('revokes whose fate is unknown', () => {
  it('names them, says why, and to look at the list, after what was cut short', () => {
    const cut = result({
      revoked: tokens('r', 2),
      left: tokens('l', 3),
      unknown: tokens('u', 2),
      stop: { by: 'totalTimeout', totalMs: 10_000 },
    })
    expect(stepFailure(done(cut, TASK))).toBe(
      "totalTimeout (10 s) ran out: 2 tokens revoked, 3 left active; run the cleanup again to revoke them. 2 tokens may have been revoked or not: in flight when totalTimeout ran out, and no list could tell; list the tokens to see: 'ci-u0' (u0), 'ci-u1' (u1).",
    )
  })

  it('fails a cleanup whose only trouble is a revoke cut off by a cancel', () => {
    const cut = result({ unknown: tokens('u', 1), stop: { by: 'cancel', signal: 'SIGTERM' } })
    expect(stepFailure(done(cut, TASK))).toBe(
      "1 token may have been revoked or not: in flight when the step was cancelled, and no list could tell; list the tokens to see: 'ci-u0' (u0).",
    )
  })

  it('names the first five of many, and how many more, as every failure that lists tokens does', () => {
    const cut = result({ unknown: tokens('u', 7), stop: { by: 'cancel', signal: 'SIGTERM' } })
    const failure = stepFailure(done(cut, TASK)) ?? ''
    expect(failure).toContain("'ci-u3' (u3), 'ci-u4' (u4). And 2 more: each has a warning above.")
    expect(failure).not.toContain('ci-u5')
  })
})

describe('timeoutFailure', () => {
  it('names totalTimeout, its value, how many were revoked and how many were left', () => {
    const cut = result({
      revoked: tokens('r', 3),
      left: tokens('l', 7),
      stop: { by: 'totalTimeout', totalMs: 60_000 },
    })
    expectCutShort(timeoutFailure(cut), 'totalTimeout (60 s) ran out', '3 tokens revoked', '7 left')
  })

  it('names the cancel and its signal when a cancel cut the cleanup short', () => {
    const cut = result({
      revoked: tokens('r', 5),
      left: tokens('l', 15),
      stop: { by: 'cancel', signal: 'SIGINT' },
    })
    expectCutShort(timeoutFailure(cut), 'cancelled (SIGINT)', '5 tokens revoked', '15 left')
    expect(timeoutFailure(cut)).not.toContain('totalTimeout')
  })

  it('counts one token as one, and none revoked as 0 tokens', () => {
    const one = timeoutFailure(result({ revoked: tokens('r', 1), left: tokens('l', 1) }))
    expectCutShort(one, ': 1 token revoked, 1 left')
    expectCutShort(timeoutFailure(result({ left: tokens('l', 2) })), ': 0 tokens revoked, 2 left')
  })

  it('says nothing when no token was left, however many were revoked', () => {
    expect(timeoutFailure(result({ revoked: tokens('r', 5) }))).toBeUndefined()
  })
})

describe('cleanupFailure', () => {
  const refused = (n: number) =>
    tokens('n', n).map((t) => ({ token: t, reason: `answered 403 for ${t.id}.` }))

  it('names each token not revoked with why, and counts the others', () => {
    const failure = cleanupFailure(result({ revoked: tokens('r', 1), notRevoked: refused(2) }))
    expect(failure).toMatch(/^2 of 3 tokens were not revoked \(the other 1 was\): /)
    expect(failure).toContain(
      "'ci-n0' (n0): answered 403 for n0. 'ci-n1' (n1): answered 403 for n1.",
    )
  })

  it('names the first five, and points at the warnings and the summary for the rest', () => {
    const failure = cleanupFailure(result({ notRevoked: refused(7) })) ?? ''
    expect(failure).toMatch(/^7 of 7 tokens were not revoked \(the other 0 were\): /)
    expect(failure).toContain("'ci-n4' (n4): answered 403 for n4.")
    expect(failure).not.toContain('n5')
    expect(failure).toMatch(
      / And 2 more: each has a warning above, and the job summary lists them\.$/,
    )
  })

  it('says nothing when every token chosen was revoked', () => {
    expect(cleanupFailure(result({ revoked: tokens('r', 3) }))).toBeUndefined()
  })
})

describe('stepFailure', () => {
  it('fails a cleanup cut short, naming totalTimeout first, then the tokens not revoked', () => {
    const cut = result({
      revoked: tokens('r', 1),
      notRevoked: [{ token: token('n0', 'ci-n0', 40), reason: 'denied.' }],
      left: tokens('l', 2),
    })
    const failure = stepFailure(done(cut, TASK)) ?? ''
    expect(failure).toMatch(/^totalTimeout \(900 s\) ran out: .*2 left active/)
    expect(failure).toMatch(/\. 1 of 2 tokens was not revoked .*'ci-n0' \(n0\): denied\.$/)
    expect(failure.indexOf('totalTimeout')).toBeLessThan(failure.indexOf('not revoked'))
  })

  it('fails a cleanup that could not revoke some tokens with cleanupFailure alone', () => {
    const failed = result({
      revoked: tokens('r', 1),
      notRevoked: [{ token: token('n0', 'ci-n0', 40), reason: 'denied.' }],
    })
    expect(stepFailure(done(failed, TASK))).toBe(cleanupFailure(failed))
  })

  it('does not fail a cleanup that revoked everything it chose, dry run or not', () => {
    const whole = result({ revoked: tokens('r', 2) })
    expect(stepFailure(done(whole, TASK))).toBeUndefined()
    expect(stepFailure(done(whole, { ...TASK, dryRun: true }))).toBeUndefined()
  })

  it('never fails another operation on its result', () => {
    expect(stepFailure(done(listed([])))).toBeUndefined()
    expect(stepFailure(done(created(token('a', 'x', 0)), createTask()))).toBeUndefined()
    const revoked = token('a', 'x', 0, { state: 'revoked', tokenValue: undefined })
    expect(
      stepFailure(done({ operation: 'revoke', token: revoked, alreadyRevoked: true })),
    ).toBeUndefined()
  })
})

describe('stepFailure: tokens revoked by someone else meanwhile (case 5)', () => {
  const elsewhere = [token('e1', 'ci-e1', 45, { state: 'revoked', revokedBy: 'u-2' })]

  it('does not fail a cleanup for them: they count as revoked', () => {
    const whole = result({ revoked: tokens('r', 2), revokedElsewhere: elsewhere })
    expect(stepFailure(done(whole, TASK))).toBeUndefined()
  })

  it('counts them among the others when some tokens were not revoked', () => {
    const failed = result({
      revoked: tokens('r', 1),
      revokedElsewhere: elsewhere,
      notRevoked: [{ token: token('n', 'ci-n', 50), reason: 'answered 403.' }],
    })
    expect(stepFailure(done(failed, TASK))).toMatch(
      /^1 of 3 tokens was not revoked \(the other 2 were\): /,
    )
  })
})
