// A cleanup at the platform's pace, in simulated time: the action's cleanup (client, call loop, pool) against the ways real platforms throttle, property by property.
import { describe, expect, it } from '@jest/globals'
import fc from 'fast-check'
import type { ThrottleSpec } from '../support/fake-platform/throttle.mjs'
import { knowingClient, simulateCleanup, type Workload } from '../fixtures/simulation.js'
import { late, platform, work } from '../fixtures/throttle-family.js'

/** Requests a second the platform lets through; a limit in flight has no rate. */
function rateOf(spec: ThrottleSpec): number {
  const { limit: l } = spec
  if (l === undefined || 'inFlight' in l) return Infinity
  return 'perSecond' in l ? l.perSecond : (l.perWindow * 1000) / l.windowMs
}

/**
 * The longest wait the platform asks for: what its Retry-After says (1 s for a slot, whose
 * wait nobody knows), or, when it says nothing or 0, what its limit makes a request wait
 * anyway (a window, a bucket's gap, a request in flight).
 */
function longestWait(spec: ThrottleSpec, latencyMs: number): number {
  const { limit: l } = spec
  const real =
    l === undefined || 'inFlight' in l
      ? latencyMs
      : 'perSecond' in l
        ? 1000 / l.perSecond
        : l.windowMs
  // Without one, the request waits its backoff: from half a second to a second, then longer.
  const told = ['seconds', 'date', 'none'].includes(spec.retryAfter ?? '')
    ? Math.max(1000, real)
    : real
  const slot = l !== undefined && 'inFlight' in l && spec.retryAfter === 'fractional' ? 1000 : 0
  return Math.max(told, slot)
}

/**
 * When another job gives back the last share it takes before `endMs` (0: it takes none): a
 * share taken later changes nothing before then.
 */
function lastChangeMs(spec: ThrottleSpec, endMs: number): number {
  const taken = (spec.shared ?? []).filter(({ fromMs }) => fromMs < endMs)
  return Math.max(0, ...taken.map(({ untilMs }) => untilMs))
}

/** Runs one workload: the action's cleanup and the client that knows the limit. */
async function run(w: Workload) {
  return { sim: await simulateCleanup(w), knowing: (await knowingClient(w)).ms }
}

// Every property draws its cases from one seed (FC_SEED, 1 unless set): CI runs the same cases
// each time. Other seeds find cleanups the pool does not meet (docs/PERFORMANCE.md,
// "Throttled cleanups"): a limit in flight read as a rate, or a rate as a limit. On seeds 1 to
// 16, the bound under a limit in flight fails on 14 (a share taken mid-run), and the first
// round over a limit of 2 in flight on 6 (the first burst's sends queued); every other holds
// on all. With answers never late, only the bound under a limit in flight fails, on 14. Seeds
// 17 to 32 find a share taken in a short cleanup's first moments (19), a token bucket with a
// burst of 2 read as a limit of 2 in flight (26), and the first round (28).
describe('a cleanup against the ways platforms throttle (simulated time)', () => {
  it('revokes nothing twice, sends no revoke more than retries + 1 times, and accounts for every token, whatever the network’s jitter', async () => {
    // Answers up to 20 ms late, out of the order they left in; the timing properties below,
    // up to 5 ms (docs/PERFORMANCE.md, "Throttled cleanups").
    const retries = fc.integer({ min: 0, max: 5 })
    const jittered = work(platform, retries, undefined, fc.constantFrom(0, 5, 20))
    await fc.assert(
      fc.asyncProperty(jittered, async (w) => {
        // The cleanup alone: a client that knows the limit has nothing to say of safety.
        const { result, platform: p, ids } = await simulateCleanup(w)
        const revokedOnce = p.arrived.filter((a) => a.tokenId !== undefined && a.status === 200)
        expect(new Set(revokedOnce.map((a) => a.tokenId)).size).toBe(revokedOnce.length)
        expect(Math.max(...p.revokesPerToken().values())).toBeLessThanOrEqual(w.retries + 1)
        const reported = [
          ...result.revoked,
          ...result.revokedElsewhere,
          ...result.notRevoked.map(({ token }) => token),
          ...result.left,
          ...result.unknown,
        ].map((token) => token.id)
        expect(reported.sort()).toEqual([...ids].sort())
        const revoked = [...result.revoked, ...result.revokedElsewhere].map((t) => t.id)
        expect(revoked.sort()).toEqual(revokedOnce.map((a) => a.tokenId).sort())
      }),
      { numRuns: 100, seed: Number(process.env.FC_SEED ?? 1) },
    )
  })

  // Where the waits the platform asks for are shorter than the work left: the work the knowing
  // client has left once the capacity last changes lasts longer than the longest wait (under a
  // limit in flight), or five times it and 2 s at least (under a rate). The last change is when
  // another job gives back the last share it takes while the bound runs (1.5 times the knowing
  // client's time); a share kept past the knowing client's end leaves no such work, and the case
  // is not held to the bound. Shorter, the first round over the limit (its waits, and the
  // backoff of a request turned away twice) is most of it: a 429 a moment before the share
  // comes back asks for a wait the knowing client never has. A sliding window's rate is not yet
  // held to 1.5x any closer than that. Each bound counts the cases it holds, and fails if too
  // few were long enough: under a rate it drew 20 to 120 tokens and held 0 to 3 cases of 60.
  const promise = async (
    family: fc.Arbitrary<ThrottleSpec>,
    tokens: fc.Arbitrary<number>,
    numRuns: number,
    bound: { waits: number; atLeastMs: number; checked: number },
  ) => {
    let checked = 0
    await fc.assert(
      fc.asyncProperty(work(family, fc.constant(3), tokens, late), async (w) => {
        const { sim, knowing } = await run(w)
        expect(sim.platform.activeCount()).toBe(0)
        const left = knowing - lastChangeMs(w.spec, 1.5 * knowing)
        if (left < Math.max(bound.atLeastMs, bound.waits * longestWait(w.spec, w.latencyMs))) return
        checked++
        expect(sim.ms).toBeLessThanOrEqual(1.5 * knowing)
      }),
      { numRuns, seed: Number(process.env.FC_SEED ?? 1) },
    )
    // Enough of the cases drawn are long enough to hold to the bound: it is not met by skipping.
    expect(checked).toBeGreaterThanOrEqual(bound.checked)
  }

  it('with the default retries, revokes every token under a limit in flight, in at most 1.5 times what a client that knows the limit needs', async () => {
    const inFlight = platform.filter((spec) => rateOf(spec) === Infinity)
    await promise(inFlight, fc.integer({ min: 100, max: 400 }), 60, {
      waits: 1,
      atLeastMs: 0,
      checked: 20,
    })
  })

  it('with the default retries, revokes every token at a rate of 20 requests a second or more, in at most 1.5 times what a client that knows the limit needs', async () => {
    await promise(
      platform.filter((spec) => rateOf(spec) >= 20),
      fc.integer({ min: 200, max: 600 }),
      45,
      { waits: 5, atLeastMs: 2000, checked: 12 },
    )
  })

  it('reads a short cleanup over a limit in flight as that limit, never as a rate, from a client that sends one request after another', async () => {
    // The first round over the limit: 429s after the platform's work, counted in flight or
    // not, told to come back at once or after a backoff, while the later requests of the burst
    // are still on their way; before the pool knew the depth at which each got there, it read
    // them as a rate, and took 2 to 3 times as long; before it read a network's jitter from
    // its round trips, answers 2 or 5 ms late did the same.
    const overLimit = fc.record({
      spec: fc.record({
        limit: fc.record({ inFlight: fc.integer({ min: 2, max: 12 }) }),
        rejects: fc.constant('after latency' as const),
        rejectedInFlight: fc.boolean(),
        retryAfter: fc.constantFrom('none' as const, '0' as const),
      }),
      tokens: fc.integer({ min: 200, max: 400 }),
      concurrency: fc.integer({ min: 16, max: 32 }),
      latencyMs: fc.integer({ min: 10, max: 40 }),
      sendMs: fc.constantFrom(0.5, 1, 2),
      seed: fc.integer(),
      jitterMs: late,
    })
    await fc.assert(
      fc.asyncProperty(overLimit, async (w) => {
        const { sim, knowing } = await run({ ...w, retries: 3 })
        expect(sim.log.filter((line) => line.includes('limits the rate'))).toEqual([])
        expect(sim.ms).toBeLessThanOrEqual(1.25 * knowing)
      }),
      { numRuns: 40, seed: Number(process.env.FC_SEED ?? 1) },
    )
  })

  it('reaches within 2 s a capacity another job took half of, and one it gave back', async () => {
    const limits = fc.oneof(
      fc.record({ inFlight: fc.integer({ min: 4, max: 8 }) }),
      fc.record({ perSecond: fc.integer({ min: 40, max: 100 }), burst: fc.constant(5) }),
    )
    const taken: fc.Arbitrary<ThrottleSpec> = fc.record({
      limit: limits,
      rejects: fc.constantFrom('at once' as const, 'after latency' as const),
      retryAfter: fc.constantFrom('none' as const, '0' as const, 'fractional' as const),
      shared: fc.constant([{ fromMs: 1000, untilMs: 4000, share: 0.5 }]),
    })
    await fc.assert(
      fc.asyncProperty(taken, fc.integer(), async (spec, seed) => {
        const workload = {
          spec,
          tokens: 1000,
          concurrency: 32,
          latencyMs: 40,
          seed,
        }
        const { platform: pool } = await simulateCleanup(workload)
        const { platform: knowing } = await knowingClient(workload)
        // Taken at 1 s: from 3 s the pool sends at the share left, nearly as fast as a client
        // that knows it (its steady state under a rate is 0.85 to 0.9 of it); given back at
        // 4 s: from 6 s, at the whole of it.
        for (const from of [3000, 6000])
          expect(pool.letInBetween(from, from + 1000)).toBeGreaterThanOrEqual(
            0.7 * knowing.letInBetween(from, from + 1000),
          )
      }),
      { numRuns: 12, seed: Number(process.env.FC_SEED ?? 1) },
    )
  })
})
