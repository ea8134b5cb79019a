// The scheduler of a cleanup's revokes, driven in virtual time against a platform's limits.
import { describe, expect, it } from '@jest/globals'
import { Deadline } from '../../../src/shared/deadline.js'
import { Scheduler, type Sent } from '../../../src/operations/scheduler.js'
import type { Limit, RetryAfter } from '../../fixtures/limited-platform.js'
import { recordingRunner } from '../../fixtures/runner.js'
import { items, resentAfter, schedule } from '../../fixtures/schedule.js'
import { VirtualClock } from '../../fixtures/virtual-clock.js'

describe('Scheduler', () => {
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

    it('turned away twice, waits its backoff too, whatever Retry-After says', async () => {
      const { platform } = await schedule(
        { perSecond: 1, burst: 1 },
        { n: 10, concurrency: 4, retryAfter: '0' },
      )
      const third = platform.log.find((s) => s.attempt === 3)
      const second = platform.log.find((s) => s.item === third?.item && s.attempt === 2)
      if (third === undefined || second === undefined) throw new Error('none was sent 3 times')
      // LimitedPlatform's backoff after attempt 2: 1 s, after the 20 ms its answer took.
      expect(third.at - second.at).toBeGreaterThanOrEqual(1020)
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
      const { scheduler, platform, results } = await schedule(
        { inFlight: limit },
        { concurrency, retryAfter: '0' },
      )
      expect(scheduler.inFlightLimit).toBe(limit)
      expect(results.every((r) => r.startsWith('revoked'))).toBe(true)
      // Turned away in the first round, and by a rare probe: the limit is learnt from them.
      const turnedAway = platform.log.filter((s) => !s.admitted).length
      expect(turnedAway).toBeGreaterThanOrEqual(concurrency - limit)
      expect(turnedAway).toBeLessThanOrEqual(concurrency - limit + 2)
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
      'a rate of %i a second, bursts of %i: sends just under it, by pace or by fewer in flight, loses nothing',
      async (perSecond, burst) => {
        const { scheduler, results, platform, log } = await schedule(
          { perSecond, burst },
          { concurrency: 8 },
        )
        expect(results.every((r) => r.startsWith('revoked'))).toBe(true)
        // What it sends at most: its pace, or what its limit in flight allows at 20 ms each.
        const rate = Math.min(scheduler.pace ?? Infinity, (scheduler.inFlightLimit * 1000) / 20)
        expect(rate).toBeGreaterThan(perSecond * 0.85)
        expect(rate).toBeLessThan(perSecond * 1.15)
        expect(Math.max(...platform.sendsPerItem().values())).toBeLessThanOrEqual(3)
        expect(log.lines.length).toBeGreaterThan(0)
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

    it('probes one more in flight now and then, only while there is work enough left', async () => {
      const { platform, scheduler } = await schedule(
        { inFlight: 4 },
        { n: 3000, concurrency: 8, retryAfter: '0' },
      )
      const start = platform.log[0]?.at ?? 0
      // The first round (4 over the limit), then probes: 429s close together are one probe.
      const probes: number[] = []
      for (const send of platform.log.filter((s) => !s.admitted && s.at > start)) {
        const last = probes.at(-1)
        if (last === undefined || send.at - last > 100) probes.push(send.at)
      }
      // 15 s of work: the first probe 2 s after the 429 that set the limit, each next twice later.
      expect(probes.map((at) => Math.round((at - start) / 1000))).toEqual([2, 6, 14])
      expect(scheduler.inFlightLimit).toBe(4)
      const few = await schedule({ inFlight: 4 }, { n: 40, concurrency: 8, retryAfter: '0' })
      expect(few.platform.log.filter((s) => !s.admitted)).toHaveLength(4)
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
    const scheduler = new Scheduler(1, clock, new Deadline(clock, 0), recordingRunner())
    const sent: number[] = []
    const send = (item: number): Promise<Sent<number>> => {
      sent.push(item)
      return item === 1 ? Promise.reject(new Error('a bug')) : Promise.resolve({ done: item })
    }
    await expect(clock.run(scheduler.run(items(5), send, () => -1))).rejects.toThrow('a bug')
    expect(sent).toEqual([0, 1])
  })
})
