// RatePacer: off until a limit on the rate shows, then just under the rate the platform let in.
import { describe, expect, it } from '@jest/globals'
import { RatePacer } from '../../../src/operations/rate-pacer.js'

/** A pacer that sent and had let in `perSecond` a second for `ms`. */
function measured(perSecond: number, ms: number) {
  const pacer = new RatePacer()
  for (let at = 0; at < ms; at += 1000 / perSecond) {
    pacer.sent(at)
    pacer.admitted(at)
  }
  return pacer
}

describe('RatePacer', () => {
  it('does not pace before a 429 on the rate', () => {
    const pacer = measured(100, 1000)
    expect(pacer.rate).toBeUndefined()
    expect(pacer.nextSendAt(500)).toBe(500)
  })

  it('then paces at 90 % of the rate let in over the last second, evenly spaced', () => {
    const pacer = measured(20, 3000)
    pacer.throttled(3000)
    expect(pacer.rate).toBeCloseTo(18, 5)
    const first = pacer.nextSendAt(3000)
    pacer.sent(first)
    expect(pacer.nextSendAt(first) - first).toBeCloseTo(1000 / 18, 5)
  })

  it('measures a shorter time at the start, 100 ms at least', () => {
    const early = measured(100, 200)
    early.throttled(200)
    expect(early.rate).toBeCloseTo(90, 5)
    const first = new RatePacer()
    first.sent(0)
    first.admitted(0)
    first.throttled(10)
    expect(first.rate).toBeCloseTo(9, 5)
  })

  it('falls by at least 10 % at each 429, whatever was measured', () => {
    const pacer = measured(20, 2000)
    pacer.throttled(2000)
    pacer.throttled(2001)
    expect(pacer.rate).toBeCloseTo(18 * 0.9, 5)
  })

  it('never paces slower than one request in 5 s', () => {
    const pacer = new RatePacer()
    pacer.sent(0)
    pacer.throttled(5_000)
    expect(pacer.rate).toBe(0.2)
  })

  it('raises the pace by 2 % a second once a second has passed without a 429', () => {
    const pacer = measured(20, 2000)
    pacer.throttled(2000)
    pacer.admitted(2999)
    expect(pacer.rate).toBeCloseTo(18, 5)
    pacer.admitted(4000)
    expect(pacer.rate).toBeCloseTo(18 * (1 + 0.02 * 2), 5)
  })
})
