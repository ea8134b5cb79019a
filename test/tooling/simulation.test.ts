// The simulation's client that knows the limit: the floor the pool's properties are measured against, so never turned away itself.
import { describe, expect, it } from '@jest/globals'
import { knowingClient, type Workload } from '../fixtures/simulation.js'
import type { Limit } from '../support/fake-platform/throttle.mjs'

describe('the client that knows the limit', () => {
  const limits: Limit[] = [
    // A bucket whose next token is whole only a hair after 1/rate (it was turned away 108 times).
    { perSecond: 60, burst: 2 },
    { perSecond: 7, burst: 1 },
    { perWindow: 11, windowMs: 250 },
    { inFlight: 3 },
  ]
  it.each(limits)('is never turned away by %j', async (limit) => {
    const work: Workload = {
      spec: { limit, rejects: 'after latency', retryAfter: 'none' },
      tokens: 26,
      concurrency: 28,
      latencyMs: 6,
      sendMs: 0,
    }
    const { platform } = await knowingClient(work)
    expect(platform.throttle.refused[429]).toBe(0)
    expect(platform.activeCount()).toBe(0)
  })

  it('sends a revoke answered 503 again only once the throttle would let it in', async () => {
    const spec = { limit: { perSecond: 20, burst: 1 }, outages: [{ fromMs: 0, untilMs: 100 }] }
    const { platform } = await knowingClient({ spec, tokens: 10, concurrency: 4, latencyMs: 10 })
    expect(platform.throttle.refused).toEqual({ 429: 0, 503: expect.any(Number) })
    expect(platform.throttle.refused[503]).toBeGreaterThan(0)
    expect(platform.activeCount()).toBe(0)
  })
})
