// wording: the one sentence that says what a cleanup did, the note on the clock it measured
// ages on, and tokens revoked by someone else (step-failure.test.ts: why a cleanup fails).
import { describe, expect, it } from '@jest/globals'
import {
  revokeOnExitNote,
  ageClockNote,
  allRevoked,
  cleanupOutcome,
  revokedElsewhereNote,
} from '../../../../src/report/wording.js'
import { cleanedUp as result, cleanupTask } from '../../../fixtures/done.js'
import { token } from '../../../fixtures/token-api.js'

const TASK = cleanupTask({ name: ['ci-*'], olderThan: undefined })
const tokens = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => token(`${prefix}${i}`, `ci-${prefix}${i}`, 40))

describe('cleanupOutcome', () => {
  it('says how many were left when totalTimeout ran out', () => {
    const cut = result({
      revoked: tokens('r', 2),
      notRevoked: [{ token: token('n0', 'ci-n0', 40), reason: 'denied.' }],
      left: tokens('l', 3),
    })
    expect(cleanupOutcome(cut, TASK)).toBe(
      'Revoked 2 tokens; 1 could not be revoked; 3 left when totalTimeout ran out.',
    )
  })

  it('says how many were left when a cancel cut the cleanup short', () => {
    const cut = result({
      revoked: tokens('r', 5),
      left: tokens('l', 15),
      stop: { by: 'cancel', signal: 'SIGINT' },
    })
    expect(cleanupOutcome(cut, TASK)).toBe('Revoked 5 tokens; 15 left when the step was cancelled.')
  })

  it('does not mention totalTimeout when nothing was left', () => {
    expect(cleanupOutcome(result({ revoked: tokens('r', 1) }), TASK)).toBe('Revoked 1 token.')
  })

  it('takes dryRun from the task: what would be revoked, and that nothing was', () => {
    const planned = result({ revoked: tokens('r', 3) })
    expect(cleanupOutcome(planned, { ...TASK, dryRun: true })).toBe(
      'Dry run: 3 tokens would be revoked; nothing was revoked.',
    )
    expect(cleanupOutcome(planned, TASK)).toBe('Revoked 3 tokens.')
  })
})

describe('ageClockNote', () => {
  const MINUTE = 60_000
  it('says nothing while the two clocks are within 5 minutes, on either side', () => {
    for (const skewMs of [0, 5 * MINUTE, -5 * MINUTE])
      expect(ageClockNote(result({ ages: { by: 'platform', skewMs } }))).toBeUndefined()
  })

  // The words of each note: test/unit/report/wording/golden-messages.test.ts.
  it("warns past 5 minutes, saying which way the runner's clock is off", () => {
    const behind = ageClockNote(result({ ages: { by: 'platform', skewMs: 5 * MINUTE + 60_000 } }))
    expect(behind).toContain("The runner's clock is 6m behind the platform's")
    expect(behind).toContain("ages are measured on the platform's clock")
    const ahead = ageClockNote(result({ ages: { by: 'platform', skewMs: -2 * 86_400_000 } }))
    expect(ahead).toContain("The runner's clock is 2d ahead of the platform's")
    expect(ahead).toContain("ages are measured on the platform's clock")
  })

  it("says when the ages are on the runner's clock", () => {
    const note = ageClockNote(result({ ages: { by: 'runner' } }))
    expect(note).toContain('no Date header')
    expect(note).toContain("ages are measured on the runner's clock")
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
    expect(cleanupOutcome(done, TASK)).toBe(
      'Revoked 2 tokens; 1 more had been revoked by someone else meanwhile.',
    )
    expect(allRevoked(done).map((t) => t.id)).toEqual(['r0', 'r1', 'e1'])
  })

  it('are named with when and by whom', () => {
    const note = revokedElsewhereNote(elsewhere[0] ?? token('x', 'x', 0))
    expect(note).toMatch(/^was revoked by someone else meanwhile at 2026-11-22T11:00:00Z by u-2 /)
    expect(note).toContain('counted as revoked')
    expect(revokedElsewhereNote(token('y', 'y', 0, { state: 'revoked' }))).toBe(
      'was revoked by someone else meanwhile (another job, or a person): counted as revoked',
    )
  })
})

describe('revokeOnExitNote', () => {
  it.each(['always', 'failure'] as const)(
    'says when a token created with %s is revoked',
    (when) => {
      expect(revokeOnExitNote(when)).toContain('revoked at the end of the job')
    },
  )

  it.each(['always', 'failure', 'never'] as const)(
    "says nothing of a reused token (%s): it was never this step's",
    (when) => {
      expect(revokeOnExitNote(when, true)).toBeUndefined()
    },
  )

  it('says nothing with revokeOnExit: false', () => {
    expect(revokeOnExitNote('never')).toBeUndefined()
  })
})
