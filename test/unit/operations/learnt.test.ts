// Learnt: a capacity that comes down at once on a 429 and goes up step by step, the wait between steps doubled by a step a 429 answered and quartered by one that held.
import { describe, expect, it } from '@jest/globals'
import { FIRST_STEP_MS, Learnt } from '../../../src/operations/learnt.js'

describe('Learnt', () => {
  it('comes down at once, never up by down(), and keeps what it came down to as held', () => {
    const limit = new Learnt(8)
    expect(limit.down(8, 0)).toBe(false)
    expect(limit.down(5, 10, 200)).toBe(true)
    expect([limit.value, limit.held, limit.downAt, limit.triedUntil]).toEqual([5, 5, 10, 210])
    expect(limit.down(6, 20)).toBe(false)
    expect(limit.value).toBe(5)
  })

  it('steps up only once the wait since its last change has passed, tried for tryMs', () => {
    const limit = new Learnt(4)
    expect(limit.up(5, 0, 30)).toBe(true)
    expect([limit.value, limit.triedUntil]).toEqual([5, 30])
    expect(limit.up(6, FIRST_STEP_MS - 1, 30)).toBe(false)
    expect(limit.up(6, FIRST_STEP_MS, 30)).toBe(true)
    expect(limit.value).toBe(6)
  })

  it('waits twice as long after a step a 429 answered, a quarter as long after one that held', () => {
    const limit = new Learnt(4)
    limit.down(3, 0) // No step before it (the first 429): the wait stays FIRST_STEP_MS.
    expect(limit.up(4, FIRST_STEP_MS - 1, 100)).toBe(false)
    expect(limit.up(4, FIRST_STEP_MS, 100)).toBe(true)
    limit.down(3, FIRST_STEP_MS + 99) // A 429 answered that step, tried: 2 × FIRST_STEP_MS.
    const first = FIRST_STEP_MS + 99
    expect(limit.up(4, first + 2 * FIRST_STEP_MS - 1, 100)).toBe(false)
    expect(limit.up(4, first + 2 * FIRST_STEP_MS, 100)).toBe(true)
    const second = first + 2 * FIRST_STEP_MS + 50
    limit.down(3, second) // 4 × FIRST_STEP_MS.
    expect(limit.up(4, second + 4 * FIRST_STEP_MS, 100)).toBe(true)
    // That step held (no 429 by the next one): the wait after the next is a quarter.
    expect(limit.up(5, second + 8 * FIRST_STEP_MS, 100)).toBe(true)
    expect(limit.up(6, second + 9 * FIRST_STEP_MS - 1, 100)).toBe(false)
    expect(limit.up(6, second + 9 * FIRST_STEP_MS, 100)).toBe(true)
  })

  it('waits no longer than capMs between steps, however many 429s answered them', () => {
    const limit = new Learnt(4)
    for (const at of [0, 1_000, 2_000, 3_000]) {
      expect(limit.up(5, at, 100)).toBe(true)
      expect(limit.down(4, at + 10)).toBe(true) // Each step answered by a 429: the wait doubles, to 16 × FIRST_STEP_MS.
    }
    const last = 3_010
    expect(limit.up(5, last + 8 * FIRST_STEP_MS, 100)).toBe(false)
    expect(limit.up(5, last + 3 * FIRST_STEP_MS - 1, 100, 3 * FIRST_STEP_MS)).toBe(false)
    expect(limit.up(5, last + 3 * FIRST_STEP_MS, 100, 3 * FIRST_STEP_MS)).toBe(true)
    // A cap under the first step's wait waits that much all the same.
    limit.down(4, last + 3 * FIRST_STEP_MS + 10)
    const fall = last + 3 * FIRST_STEP_MS + 10
    expect(limit.up(5, fall + FIRST_STEP_MS - 1, 100, 1)).toBe(false)
    expect(limit.up(5, fall + FIRST_STEP_MS, 100, 1)).toBe(true)
  })

  it('says whether the last change was a step up that no 429 has brought down', () => {
    const limit = new Learnt(4)
    expect(limit.steppedUp).toBe(false)
    limit.up(5, 0, 10)
    expect(limit.steppedUp).toBe(true)
    limit.down(4, 5)
    expect(limit.steppedUp).toBe(false)
  })

  it('keeps the wait after a fall no step led to: another job taking a share says nothing of stepping', () => {
    const limit = new Learnt(6)
    expect(limit.up(7, 0, 50)).toBe(true)
    limit.down(6, 10) // A 429 answered that step while it was tried: 2 × FIRST_STEP_MS.
    limit.down(3, 20) // No step since: still 2 × FIRST_STEP_MS, from this change.
    expect(limit.up(4, 20 + 2 * FIRST_STEP_MS - 1, 0)).toBe(false)
    expect(limit.up(4, 20 + 2 * FIRST_STEP_MS, 0)).toBe(true)
  })

  it('keeps the wait after a fall once a step’s trial is over: the step held, the platform changed', () => {
    const limit = new Learnt(6)
    expect(limit.up(7, 0, 50)).toBe(true)
    limit.down(5, 10_000) // Long after the step was tried: another job took a share.
    expect(limit.up(6, 10_000 + FIRST_STEP_MS - 1, 0)).toBe(false)
    expect(limit.up(6, 10_000 + FIRST_STEP_MS, 0)).toBe(true)
  })
})
