// AdaptivePool: the in-flight limit, its halving and growth, order and stopping.
import { describe, expect, it } from '@jest/globals'
import { AdaptivePool } from '../../src/adaptive-pool.js'
import { FakeClock } from '../fixtures/clock.js'
import { recordingRunner } from '../fixtures/runner.js'

/** Yields to other tasks, as a request on a network would. */
const tick = () => new Promise((resolve) => setImmediate(resolve))

/**
 * Runs `items` on a pool of `max`, as a cleanup does: a task takes `ticks(item)` turns,
 * then succeeds, or tells the pool it was throttled (when `isThrottled(item)`) and ends.
 * Records, at every task start and every throttle, how many were in flight then and
 * the pool's limit.
 */
async function observe(
  max: number,
  items: number[],
  ticks: (item: number) => number,
  isThrottled: (item: number) => boolean = () => false,
) {
  const clock = new FakeClock()
  const pool = new AdaptivePool(max, clock, recordingRunner())
  const starts: { item: number; inFlight: number; limit: number }[] = []
  const throttles: { inFlight: number; limit: number; startsBefore: number }[] = []
  const throttled = new Set<number>()
  let inFlight = 0
  const results = await pool.run(items, async (item) => {
    starts.push({ item, inFlight: ++inFlight, limit: pool.inFlightLimit })
    for (let i = 0; i < ticks(item); i++) await tick()
    inFlight--
    if (isThrottled(item) && !throttled.has(item)) {
      throttled.add(item)
      pool.throttled(1000)
      throttles.push({ inFlight, limit: pool.inFlightLimit, startsBefore: starts.length })
      return item
    }
    pool.succeeded()
    return item
  })
  return { results, starts, throttles, limit: pool.inFlightLimit }
}

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
  it('never has more tasks in flight than its limit, also right after a throttle halves it', async () => {
    // Item 1 is throttled while items 2, 3 and 4 are still in flight: the limit drops
    // from 4 to 2 with 3 in flight, and nothing may start until fewer than the limit are.
    const items = Array.from({ length: 16 }, (_, i) => i + 1)
    const { results, starts, throttles } = await observe(
      4,
      items,
      (item) => (item === 1 ? 1 : 5 * (item % 3) + 5),
      (item) => item === 1,
    )
    expect(throttles).toEqual([{ inFlight: 3, limit: 2, startsBefore: 4 }])
    for (const start of starts) expect(start.inFlight).toBeLessThanOrEqual(start.limit)
    expect(results).toEqual(items)
    // Every item ran once.
    expect(starts.map((s) => s.item).sort((a, b) => a - b)).toEqual(items)
  })

  it('uses its whole limit: the maximum when nothing throttles, and again once grown back', async () => {
    const calm = await observe(
      5,
      Array.from({ length: 20 }, (_, i) => i),
      (item) => 1 + (item % 3),
    )
    expect(Math.max(...calm.starts.map((s) => s.inFlight))).toBe(5)
    expect(calm.starts.every((s) => s.limit === 5)).toBe(true)

    const items = Array.from({ length: 40 }, (_, i) => i)
    const stormy = await observe(
      4,
      items,
      (item) => 1 + (item % 2),
      (item) => item === 0,
    )
    expect(stormy.results).toEqual(items)
    expect(stormy.throttles).toHaveLength(1)
    const [throttle] = stormy.throttles
    expect(throttle?.limit).toBe(2)
    // Back up by one per `limit` successes, to 4 again, and 4 in flight once more.
    const after = stormy.starts.slice(throttle?.startsBefore)
    expect(after.some((s) => s.limit === 4 && s.inFlight === 4)).toBe(true)
    expect(stormy.limit).toBe(4)
    for (const start of stormy.starts) expect(start.inFlight).toBeLessThanOrEqual(start.limit)
  })
})
