// The pool of a cleanup's revokes, driven in virtual time against a platform's limits.
import { describe, expect, it } from '@jest/globals'
import { Deadline } from '../../../src/shared/time.js'
import { Pool, type Sent } from '../../../src/operations/pool.js'
import type { Limit, RetryAfter } from '../../fixtures/limited-platform.js'
import { recordingRunner } from '../../fixtures/runner.js'
import { items, resentAfter, schedule } from '../../fixtures/schedule.js'
import { VirtualClock } from '../../fixtures/virtual-clock.js'

describe('Pool', () => {
  it('runs every item at most `concurrency` at a time, results in item order', async () => {
    const { results, platform, ms } = await schedule({ none: true }, { n: 40, concurrency: 4 })
    expect(results).toEqual(items(40).map((i) => `revoked ${i}`))
    expect(platform.maxInFlight).toBe(4)
    // Ten rounds of 20 ms: no time lost between them.
    expect(ms).toBe(200)
  })

  describe('a 429 never holds a slot while it waits', () => {
    it('gives the slot to other items until its Retry-After is over, then goes first', async () => {
      const { platform } = await schedule({ inFlight: 2 }, { n: 40, concurrency: 3 })
      const [throttled] = platform.log.filter((send) => !send.admitted)
      if (throttled === undefined) throw new Error('nothing was throttled')
      const again = platform.log.find((s) => s.item === throttled.item && s.attempt === 2)
      // Not sent again before its Retry-After (1 s, after the 20 ms its answer took)...
      expect(again?.at).toBeGreaterThanOrEqual(throttled.at + 20 + 1000)
      // ...and meanwhile its slot went to others: every item after it went first.
      const meanwhile = platform.log.filter((s) => s.at > throttled.at && s.at < (again?.at ?? 0))
      expect(meanwhile.map((s) => s.item)).toEqual(items(40).slice(throttled.item + 1))
      // Its time come, it goes before the items never sent.
      const next = platform.log.find((s) => s.at >= (again?.at ?? 0) && s !== again)
      expect(next === undefined || next.item > throttled.item).toBe(true)
    })

    it.each([
      [0, 1020],
      [0.999, 1020 + 10 + 1000 / 40],
    ])(
      'waits its Retry-After and a little jitter, no more (jitter %f: %i ms)',
      async (jitter, expected) => {
        const { platform } = await schedule({ inFlight: 2 }, { n: 40, concurrency: 3, jitter })
        // Its answer took 20 ms; then 1 s of Retry-After, and at most 10 ms + 1/40 of it.
        expect(resentAfter(platform)).toBeCloseTo(expected, 0)
      },
    )

    it('with Retry-After 0, sends it again as soon as a slot is free, with a little jitter', async () => {
      const { platform } = await schedule(
        { inFlight: 2 },
        { n: 10, concurrency: 4, retryAfter: '0' },
      )
      expect(resentAfter(platform)).toBeLessThan(100)
    })

    it('under a rate limit with Retry-After 0, paces its sends rather than resend at once', async () => {
      const { platform, results } = await schedule(
        { perSecond: 1, burst: 1 },
        { n: 10, concurrency: 4, retryAfter: '0' },
      )
      // One a second: fewer turned away than there are items, and none lost (sent again at
      // once, each would be turned away until its 4 attempts ran out).
      expect(results.every((r) => r.startsWith('revoked'))).toBe(true)
      expect(platform.log.filter((s) => !s.admitted).length).toBeLessThan(10)
    })

    it('without Retry-After, waits its own backoff', async () => {
      const { platform } = await schedule(
        { inFlight: 2 },
        { n: 10, concurrency: 4, retryAfter: 'none' },
      )
      // LimitedPlatform's backoff after attempt 1: 500 ms.
      expect(resentAfter(platform)).toBeGreaterThanOrEqual(520)
    })
  })

  describe('attempts per item stay within retries + 1', () => {
    it.each([1, 2, 4])(
      'with %i attempts, no item is sent more often, even when always throttled',
      async (attempts) => {
        const { platform, results } = await schedule(
          { perSecond: 1, burst: 1 },
          { n: 30, concurrency: 8, attempts, retryAfter: '0' },
        )
        expect(Math.max(...platform.sendsPerItem().values())).toBeLessThanOrEqual(attempts)
        expect(results.every((r) => r.startsWith('revoked') || r.startsWith('throttled'))).toBe(
          true,
        )
      },
    )
  })

  describe('learns the platform limit and stays under it', () => {
    it.each([
      [2, 4],
      [4, 8],
      [4, 32],
      [8, 32],
    ])('in flight: %i at most, with concurrency %i', async (limit, concurrency) => {
      const { platform, results } = await schedule(
        { inFlight: limit },
        { concurrency, retryAfter: '0' },
      )
      expect(results.every((r) => r.startsWith('revoked'))).toBe(true)
      // Turned away in the first round only: the limit is learnt from them, and kept.
      const turnedAway = platform.log.filter((s) => !s.admitted)
      expect(turnedAway).toHaveLength(concurrency - limit)
      const firstRound = platform.log[0]?.at
      expect(turnedAway.every((s) => s.at === firstRound)).toBe(true)
    })

    it('says what it learnt, once', async () => {
      const { log } = await schedule({ inFlight: 4 }, { concurrency: 8 })
      expect(log.lines).toEqual([
        'info: The platform turns away more than 4 revokes in flight: sending 4 at a time.',
      ])
    })

    it.each([
      [20, 5],
      [50, 10],
    ])(
      'a rate of %i a second, bursts of %i: sends just under it, loses nothing, says so once',
      async (perSecond, burst) => {
        const { results, platform, log, ms } = await schedule(
          { perSecond, burst },
          { concurrency: 8 },
        )
        expect(results.every((r) => r.startsWith('revoked'))).toBe(true)
        // After the first second, the sends come at a little under the rate.
        const later = platform.log.filter((s) => s.at - (platform.log[0]?.at ?? 0) > 2_000)
        const spanMs = (later.at(-1)?.at ?? 0) - (later[0]?.at ?? 0)
        const rate = ((later.length - 1) * 1000) / spanMs
        expect(rate).toBeGreaterThan(perSecond * 0.85)
        expect(rate).toBeLessThanOrEqual(perSecond)
        expect(later.every((s) => s.admitted)).toBe(true)
        expect(Math.max(...platform.sendsPerItem().values())).toBeLessThanOrEqual(3)
        expect(ms).toBeLessThan(((300 - burst) / perSecond) * 1000 * 1.15)
        // Its first burst may look like a limit in flight too: each said once.
        expect(log.lines).toContain(
          'info: The platform limits the rate of requests: sending revokes a little slower than it lets them in.',
        )
        expect(new Set(log.lines).size).toBe(log.lines.length)
      },
    )

    it('takes no longer than 1.5 times what a client that knew the limit would need', async () => {
      // The same 33 cases as the benchmark, in virtual time (docs/PERFORMANCE.md has the real ones).
      const cases: [Limit, RetryAfter, number, number][] = []
      for (const limit of [2, 4, 8])
        for (const retryAfter of ['seconds', '0', 'none'] as const)
          for (const concurrency of [4, 8, 32]) {
            cases.push([
              { inFlight: limit },
              retryAfter,
              concurrency,
              (300 / Math.min(limit, concurrency)) * 20,
            ])
          }
      for (const [perSecond, burst] of [
        [20, 5],
        [50, 10],
      ] as const)
        for (const retryAfter of ['seconds', '0', 'none'] as const)
          for (const concurrency of [4, 8, 32])
            cases.push([
              { perSecond, burst },
              retryAfter,
              concurrency,
              ((300 - burst) / perSecond) * 1000,
            ])
      for (const [limit, retryAfter, concurrency, ideal] of cases) {
        const { ms, results } = await schedule(limit, { concurrency, retryAfter })
        expect([limit, retryAfter, concurrency, ms <= 1.5 * ideal]).toEqual([
          limit,
          retryAfter,
          concurrency,
          true,
        ])
        expect(results.every((r) => r.startsWith('revoked'))).toBe(true)
      }
    })
  })

  describe('when the deadline runs out', () => {
    it('starts nothing more, and leaves what was not sent', async () => {
      const { results, platform } = await schedule(
        { none: true },
        { n: 20, concurrency: 2, totalMs: 100 },
      )
      // 20 ms per round of 2: sends at 0, 20, 40, 60 and 80 ms; none at 100.
      expect(platform.log.map((s) => s.at - (platform.log[0]?.at ?? 0))).toEqual([
        0, 0, 20, 20, 40, 40, 60, 60, 80, 80,
      ])
      expect(results.filter((r) => r.startsWith('left'))).toHaveLength(10)
    })

    it('leaves a throttled item whose wait would end after it', async () => {
      const { results, platform } = await schedule(
        { inFlight: 1 },
        { n: 4, concurrency: 2, totalMs: 500 },
      )
      const throttled = platform.log.filter((s) => !s.admitted).map((s) => s.item)
      expect(throttled.length).toBeGreaterThan(0)
      for (const item of throttled) expect(results[item]).toBe(`left ${item}`)
    })
  })

  describe('when the step is cancelled', () => {
    it('starts nothing more; what is in flight ends; the rest is left', async () => {
      const { results, platform, ms } = await schedule(
        { none: true },
        { n: 40, concurrency: 4, cancelAtMs: 50 },
      )
      // Rounds of 4 sent at 0, 20 and 40 ms; the one in flight at 50 ms ends at 60.
      expect(platform.log).toHaveLength(12)
      expect(results.slice(0, 12)).toEqual(items(12).map((i) => `revoked ${i}`))
      expect(results.slice(12)).toEqual(
        items(40)
          .slice(12)
          .map((i) => `left ${i}`),
      )
      expect(ms).toBe(60)
    })

    it('wakes at the cancel: an item waiting for its 429 is left, not waited for', async () => {
      // Both sent at 0; one is turned away, and waits its Retry-After (1 s) with nothing in flight.
      const { results, platform, ms } = await schedule(
        { inFlight: 1 },
        { n: 2, concurrency: 2, cancelAtMs: 100 },
      )
      expect(platform.log).toHaveLength(2)
      expect(results.filter((r) => r.startsWith('left'))).toHaveLength(1)
      expect(ms).toBe(100)
    })
  })

  it('fails with the error of a send that throws, starting nothing more', async () => {
    const clock = new VirtualClock()
    const pool = new Pool(1, clock, new Deadline(clock, 0), recordingRunner())
    const sent: number[] = []
    const send = (item: number): Promise<Sent<number>> => {
      sent.push(item)
      return item === 1 ? Promise.reject(new Error('a bug')) : Promise.resolve({ done: item })
    }
    await expect(clock.run(pool.run(items(5), send, () => -1))).rejects.toThrow('a bug')
    expect(sent).toEqual([0, 1])
  })
})
