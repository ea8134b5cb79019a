// The throttle model shared by the fake platform and the simulation: each kind of limit, each way of refusing.
import { describe, expect, it } from '@jest/globals'
import { retryAfterHeader, Throttle } from '../support/fake-platform/throttle.mjs'

const T0 = Date.UTC(2026, 10, 27, 12, 0, 0)

describe('a limit in flight', () => {
  it('lets in up to its limit, refuses the next, and lets one in again once one leaves', () => {
    const throttle = new Throttle({ limit: { inFlight: 2 } }, T0)
    const [a, b] = [throttle.arrive(T0), throttle.arrive(T0)]
    expect([a.refusal, b.refusal]).toEqual([undefined, undefined])
    const c = throttle.arrive(T0)
    expect(c.refusal).toEqual({ status: 429, headers: { 'Retry-After': '1' }, atOnce: false })
    expect(throttle.nextAdmission(T0)).toBe(Infinity)
    throttle.leave(c.ticket)
    expect(throttle.inFlight).toBe(2)
    throttle.leave(a.ticket)
    throttle.leave(a.ticket) // a second leave changes nothing
    expect(throttle.inFlight).toBe(1)
    expect(throttle.nextAdmission(T0 + 5)).toBe(T0 + 5)
    expect(throttle.arrive(T0 + 5).refusal).toBeUndefined()
  })

  it('counts a request being turned away in flight only when told to, and only after the latency', () => {
    const counting = new Throttle({ limit: { inFlight: 1 }, rejectedInFlight: true }, T0)
    counting.arrive(T0)
    const turned = counting.arrive(T0)
    expect(counting.inFlight).toBe(2)
    counting.leave(turned.ticket)
    expect(counting.inFlight).toBe(1)
    const atOnce = new Throttle(
      { limit: { inFlight: 1 }, rejectedInFlight: true, rejects: 'at once' },
      T0,
    )
    atOnce.arrive(T0)
    expect(atOnce.arrive(T0).refusal?.atOnce).toBe(true)
    expect(atOnce.inFlight).toBe(1)
  })

  it('shrinks while another job holds a share of it, and grows back', () => {
    const shared = [{ fromMs: 1000, untilMs: 3000, share: 0.5 }]
    const throttle = new Throttle({ limit: { inFlight: 4 }, shared }, T0)
    expect(throttle.capacity(T0).inFlight).toBe(4)
    for (let i = 0; i < 2; i++) expect(throttle.arrive(T0 + 1000).refusal).toBeUndefined()
    expect(throttle.arrive(T0 + 1000).refusal?.status).toBe(429)
    expect(throttle.capacity(T0 + 2999).inFlight).toBe(2)
    // Full while shared: the next slot comes when the share comes back.
    expect(throttle.nextAdmission(T0 + 1500)).toBe(T0 + 3000)
    expect(throttle.arrive(T0 + 3000).refusal).toBeUndefined()
  })
})

describe('a token bucket', () => {
  it('lets a burst in, then one per 1/rate, and tells the wait', () => {
    const throttle = new Throttle({ limit: { perSecond: 10, burst: 3 } }, T0)
    for (let i = 0; i < 3; i++) expect(throttle.arrive(T0).refusal).toBeUndefined()
    const refused = throttle.arrive(T0)
    expect(refused.refusal?.headers).toEqual({ 'Retry-After': '1' })
    expect(throttle.nextAdmission(T0)).toBeCloseTo(T0 + 100)
    expect(throttle.arrive(T0 + 100).refusal).toBeUndefined()
    expect(throttle.arrive(T0 + 150).refusal?.status).toBe(429)
    expect(throttle.capacity(T0).perSecond).toBe(10)
  })
})

describe('a sliding window', () => {
  it('lets in perWindow requests in any windowMs', () => {
    const throttle = new Throttle({ limit: { perWindow: 2, windowMs: 1000 } }, T0)
    expect(throttle.arrive(T0).refusal).toBeUndefined()
    expect(throttle.arrive(T0 + 400).refusal).toBeUndefined()
    expect(throttle.arrive(T0 + 600).refusal?.status).toBe(429)
    expect(throttle.nextAdmission(T0 + 600)).toBe(T0 + 1000)
    expect(throttle.arrive(T0 + 1000).refusal).toBeUndefined()
    expect(throttle.arrive(T0 + 1200).refusal?.status).toBe(429)
    expect(throttle.capacity(T0).perSecond).toBe(2)
  })
})

describe('outages and no limit', () => {
  it('answers 503 after the latency to every request of an outage, and lets all in otherwise', () => {
    const throttle = new Throttle({ outages: [{ fromMs: 100, untilMs: 200 }] }, T0)
    expect(throttle.arrive(T0 + 99).refusal).toBeUndefined()
    expect(throttle.arrive(T0 + 100).refusal).toEqual({ status: 503, headers: {}, atOnce: false })
    expect(throttle.arrive(T0 + 200).refusal).toBeUndefined()
    expect(throttle.refused).toEqual({ 429: 0, 503: 1 })
    // Asking changes nothing: no refusal counted.
    expect([99, 100, 199, 200].map((ms) => throttle.inOutage(T0 + ms))).toEqual([
      false,
      true,
      true,
      false,
    ])
    expect(throttle.refused).toEqual({ 429: 0, 503: 1 })
    expect(throttle.capacity(T0)).toEqual({ inFlight: Infinity, perSecond: Infinity })
  })
})

describe('Retry-After, in each style', () => {
  it.each([
    ['none', 250, {}],
    ['0', 250, { 'Retry-After': '0' }],
    ['seconds', 250, { 'Retry-After': '1' }],
    ['seconds', 2100, { 'Retry-After': '3' }],
    ['fractional', 250, { 'Retry-After': '0.25' }],
    ['fractional', 1, { 'Retry-After': '0.01' }],
    ['date', 250, { 'Retry-After': 'Fri, 27 Nov 2026 12:00:01 GMT' }],
    ['far', 250, { 'Retry-After': '3600' }],
  ] as const)('%s for a wait of %i ms', (style, waitMs, header) => {
    expect(retryAfterHeader(style, waitMs, T0 + 300)).toEqual(header)
  })
})
