// time.ts: Deadline, the step's budget (totalTimeout) on an injected clock (0 means no limit),
// and systemClock, the clock the action runs on.
import { describe, expect, it } from '@jest/globals'
import { Deadline, stopped, systemClock } from '../../../src/shared/time.js'
import { FakeClock } from '../../fixtures/clock.js'

describe('Deadline', () => {
  it('counts the time left down from the budget, from when it was made', () => {
    const clock = new FakeClock()
    clock.advance(5_000) // before the deadline is made: not counted
    const deadline = new Deadline(clock, 900_000)
    expect(deadline.remaining()).toBe(900_000)
    clock.advance(300_000)
    expect(deadline.remaining()).toBe(600_000)
  })

  it('is not expired 1 ms before the end', () => {
    const clock = new FakeClock()
    const deadline = new Deadline(clock, 60_000)
    clock.advance(59_999)
    expect(deadline.remaining()).toBe(1)
    expect(deadline.expired()).toBe(false)
  })

  it('is expired at the end and after it, with nothing left (never less than 0)', () => {
    const clock = new FakeClock()
    const deadline = new Deadline(clock, 60_000)
    clock.advance(60_000)
    expect(deadline.expired()).toBe(true)
    expect(deadline.remaining()).toBe(0)
    clock.advance(1_000)
    expect(deadline.remaining()).toBe(0)
  })

  it('with a budget of 0 has no limit: Infinity left, never expired, past the largest budget too', () => {
    const clock = new FakeClock()
    const deadline = new Deadline(clock, 0)
    clock.advance(21_600_000 + 1)
    expect(deadline.remaining()).toBe(Infinity)
    expect(deadline.expired()).toBe(false)
  })

  it('names totalTimeout and the budget in seconds, for messages', () => {
    expect(new Deadline(new FakeClock(), 900_000).describe()).toBe('totalTimeout (900 s)')
    expect(new Deadline(new FakeClock(), 1_000).describe()).toBe('totalTimeout (1 s)')
    expect(new Deadline(new FakeClock(), 900_000).totalMs).toBe(900_000)
  })

  describe('cancelled', () => {
    it('has nothing left from the cancel on, even without a limit, and aborts the stop signal only', () => {
      const deadline = new Deadline(new FakeClock(), 0)
      expect(deadline.stopSignal.aborted).toBe(false)
      deadline.cancel('SIGINT')
      expect(deadline.remaining()).toBe(0)
      expect(deadline.expired()).toBe(true)
      expect(deadline.stopSignal.aborted).toBe(true)
      // Requests in flight go on until cut.
      expect(deadline.cutSignal.aborted).toBe(false)
      deadline.cut()
      expect(deadline.cutSignal.aborted).toBe(true)
    })

    it('names the first signal as the cause; before a cancel, totalTimeout', () => {
      const deadline = new Deadline(new FakeClock(), 60_000)
      expect(deadline.cause()).toEqual({ by: 'totalTimeout', totalMs: 60_000 })
      deadline.cancel('SIGINT')
      deadline.cancel('SIGTERM')
      expect(deadline.cause()).toEqual({ by: 'cancel', signal: 'SIGINT' })
    })

    it('says why nothing more was sent, at the start of a sentence', () => {
      expect(stopped({ by: 'totalTimeout', totalMs: 900_000 })).toBe('totalTimeout (900 s) ran out')
      expect(stopped({ by: 'cancel', signal: 'SIGTERM' })).toBe('The step was cancelled (SIGTERM)')
    })
  })
})

describe('systemClock', () => {
  it('tells the time, waits, and gives jitter in [0, 1)', async () => {
    const before = Date.now()
    await systemClock.sleep(5)
    expect(systemClock.now()).toBeGreaterThanOrEqual(before + 4)
    const jitter = Array.from({ length: 50 }, () => systemClock.jitter())
    expect(jitter.every((value) => value >= 0 && value < 1)).toBe(true)
    expect(new Set(jitter).size).toBeGreaterThan(1)
  })

  it('ends a wait early when its signal aborts, leaving no timer behind', async () => {
    const controller = new AbortController()
    const before = Date.now()
    const waiting = systemClock.sleep(60_000, controller.signal)
    controller.abort()
    await waiting
    expect(Date.now() - before).toBeLessThan(1_000)
    // Already aborted: no wait at all.
    await systemClock.sleep(60_000, controller.signal)
    expect(Date.now() - before).toBeLessThan(1_000)
  })
})
