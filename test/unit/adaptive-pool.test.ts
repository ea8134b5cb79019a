import { describe, expect, it } from '@jest/globals'
import { AdaptivePool, AGAIN } from '../../src/adaptive-pool.js'
import { FakeClock } from '../fixtures/clock.js'
import { recordingRunner } from '../fixtures/runner.js'

/** Yields to other tasks, as a request on a network would. */
const tick = () => new Promise((resolve) => setImmediate(resolve))

describe('AdaptivePool', () => {
  it('runs every item, at most the limit at a time, results in item order', async () => {
    const pool = new AdaptivePool(3, new FakeClock(), recordingRunner())
    let inFlight = 0
    let most = 0
    const results = await pool.run([1, 2, 3, 4, 5, 6, 7], async (n) => {
      most = Math.max(most, ++inFlight)
      await tick()
      inFlight--
      return n * 10
    })
    expect(results).toEqual([10, 20, 30, 40, 50, 60, 70])
    expect(most).toBe(3)
  })

  it('halves the limit on a throttle, pauses new starts for the wait, and grows back on success', async () => {
    const clock = new FakeClock()
    const log = recordingRunner()
    const pool = new AdaptivePool(8, clock, log)
    pool.throttled(2000)
    expect(pool.inFlightLimit).toBe(4)
    // A throttle during the pause comes from a request sent before it: no second halving.
    pool.throttled(2000)
    expect(pool.inFlightLimit).toBe(4)
    expect(log.lines).toEqual([
      'info: The platform is rate-limiting: 4 requests in flight instead of 8.',
    ])

    const started: number[] = []
    await pool.run([1], () => {
      started.push(clock.now())
      return Promise.resolve(1)
    })
    expect(started[0]).toBeGreaterThanOrEqual(Date.UTC(2026, 10, 22, 12) + 2000)

    for (let i = 0; i < 4; i++) pool.succeeded()
    expect(pool.inFlightLimit).toBe(5)
    for (let i = 0; i < 50; i++) pool.succeeded()
    expect(pool.inFlightLimit).toBe(8)
  })

  it('never goes below one in flight', () => {
    const clock = new FakeClock()
    const pool = new AdaptivePool(2, clock, recordingRunner())
    for (let i = 0; i < 5; i++) {
      pool.throttled(100)
      clock.advance(200)
    }
    expect(pool.inFlightLimit).toBe(1)
  })

  it('queues an item again, behind the others, when its task says AGAIN', async () => {
    const pool = new AdaptivePool(1, new FakeClock(), recordingRunner())
    const order: string[] = []
    let first = true
    const results = await pool.run(['a', 'b'], (item) => {
      order.push(item)
      if (item === 'a' && first) {
        first = false
        return Promise.resolve(AGAIN)
      }
      return Promise.resolve(item.toUpperCase())
    })
    expect(order).toEqual(['a', 'b', 'a'])
    expect(results).toEqual(['A', 'B'])
  })

  it('stops taking new items once a task throws (a bug), so that nothing more is done unreported', async () => {
    const pool = new AdaptivePool(2, new FakeClock(), recordingRunner())
    const started: number[] = []
    const run = pool.run([1, 2, 3, 4, 5, 6], async (n) => {
      started.push(n)
      await tick()
      if (n === 1) throw new Error('bug')
      return n
    })
    await expect(run).rejects.toThrow('bug')
    for (let i = 0; i < 10; i++) await tick()
    expect(started.length).toBeLessThanOrEqual(3)
  })
})
