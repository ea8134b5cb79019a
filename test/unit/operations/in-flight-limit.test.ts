// InFlightLimit: the limit learnt from the depths the platform let in and turned away.
import { describe, expect, it } from '@jest/globals'
import { InFlightLimit } from '../../../src/operations/in-flight-limit.js'

describe('InFlightLimit', () => {
  it('starts at the most allowed, and stays there while everything gets in', () => {
    const limit = new InFlightLimit(8)
    for (let depth = 1; depth <= 8; depth++) limit.admitted(depth)
    expect(limit.value).toBe(8)
    expect(limit.ceiling).toBeUndefined()
  })

  it('falls to the deepest depth let in when one beyond it is turned away, at once', () => {
    const limit = new InFlightLimit(8)
    for (let depth = 1; depth <= 4; depth++) limit.admitted(depth)
    expect(limit.throttled(5, 0)).toBe('in flight')
    expect(limit.value).toBe(4)
    expect(limit.ceiling).toBe(4)
    // The others of the same round, deeper, change nothing more: not halved again and again.
    for (const depth of [6, 7, 8]) expect(limit.throttled(depth, 0)).toBe('in flight')
    expect(limit.value).toBe(4)
  })

  it('calls a 429 shallower than a depth let in, or alone in flight, a limit on the rate, and keeps its limit', () => {
    const limit = new InFlightLimit(8)
    for (let depth = 1; depth <= 4; depth++) limit.admitted(depth)
    expect(limit.throttled(3, 0)).toBe('rate')
    expect(limit.throttled(1, 0)).toBe('rate')
    expect(limit.value).toBe(8)
    // At the deepest depth let in, it may be the in-flight limit: the limit falls below it.
    expect(limit.throttled(4, 0)).toBe('in flight')
    expect(limit.value).toBe(3)
  })

  it('with nothing let in yet, sends one at a time, then doubles back up to the most allowed', () => {
    const limit = new InFlightLimit(8)
    expect(limit.throttled(3, 0)).toBe('in flight')
    expect(limit.value).toBe(1)
    expect(limit.ceiling).toBeUndefined()
    limit.admitted(1)
    expect(limit.value).toBe(2)
    limit.admitted(1)
    limit.admitted(2)
    expect(limit.value).toBe(4)
    for (let i = 0; i < 4; i++) limit.admitted(4)
    expect(limit.value).toBe(8)
  })

  it('below the ceiling, grows by one per round let in; never past the ceiling', () => {
    const limit = new InFlightLimit(8)
    for (let depth = 1; depth <= 5; depth++) limit.admitted(depth)
    limit.throttled(6, 0)
    expect(limit.value).toBe(5)
    // Some later failure at a shallower depth: not the in-flight limit (depth 4 was let in).
    expect(limit.throttled(4, 0)).toBe('rate')
    expect(limit.value).toBe(5)
    for (let i = 0; i < 50; i++) limit.admitted(5)
    expect(limit.value).toBe(5)
  })

  it('does not raise the ceiling for a depth counted deeper than it: the client counts answers in transit', () => {
    const limit = new InFlightLimit(8)
    limit.admitted(1)
    limit.admitted(2)
    limit.throttled(3, 0)
    expect(limit.ceiling).toBe(2)
    limit.admitted(3)
    expect(limit.ceiling).toBe(2)
    // Nor does a 429 at that depth count as a limit on the rate: it may be the in-flight one.
    expect(limit.throttled(2, 0)).toBe('in flight')
    expect(limit.value).toBe(1)
  })

  describe('probing above the ceiling', () => {
    const atCeiling = () => {
      const limit = new InFlightLimit(8)
      for (let depth = 1; depth <= 4; depth++) limit.admitted(depth)
      limit.throttled(5, 0)
      return limit
    }

    it('tries one more only 2 s after the 429 that set it, and only with work enough left', () => {
      const limit = atCeiling()
      limit.probe(1_999, 1_000)
      expect(limit.value).toBe(4)
      limit.probe(2_000, 49)
      expect(limit.value).toBe(4)
      limit.probe(2_000, 50)
      expect(limit.value).toBe(5)
    })

    it('keeps one more that gets in for a whole round; after one that misses, waits twice as long', () => {
      const kept = atCeiling()
      kept.probe(2_000, 1_000)
      // One alone may have been counted a place too deep: a round of them proves it.
      for (let i = 0; i < 4; i++) kept.admitted(5)
      expect(kept.ceiling).toBe(4)
      kept.admitted(5)
      expect(kept.ceiling).toBe(5)
      const missed = atCeiling()
      missed.probe(2_000, 1_000)
      missed.throttled(5, 2_050)
      expect(missed.value).toBe(4)
      missed.probe(2_050 + 3_999, 1_000)
      expect(missed.value).toBe(4)
      missed.probe(2_050 + 4_000, 1_000)
      expect(missed.value).toBe(5)
    })

    it('never probes past the most allowed, nor without a ceiling', () => {
      const fresh = new InFlightLimit(4)
      fresh.probe(60_000, 1_000)
      expect(fresh.value).toBe(4)
      const capped = new InFlightLimit(4)
      for (let depth = 1; depth <= 4; depth++) capped.admitted(depth)
      capped.throttled(5, 0)
      capped.probe(60_000, 1_000)
      expect(capped.value).toBe(4)
    })
  })
})
