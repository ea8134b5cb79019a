import { describe, expect, it } from '@jest/globals'
import { systemClock } from '../../src/clock.js'

describe('systemClock', () => {
  it('tells the time, waits, and gives jitter in [0, 1)', async () => {
    const before = Date.now()
    await systemClock.sleep(5)
    expect(systemClock.now()).toBeGreaterThanOrEqual(before + 4)
    const jitter = Array.from({ length: 50 }, () => systemClock.jitter())
    expect(jitter.every((value) => value >= 0 && value < 1)).toBe(true)
    expect(new Set(jitter).size).toBeGreaterThan(1)
  })
})
