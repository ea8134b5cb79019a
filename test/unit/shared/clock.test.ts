import { describe, expect, it } from '@jest/globals'
import { systemClock } from '../../../src/shared/time.js'

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
