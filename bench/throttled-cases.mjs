// @ts-check
// The throttled cleanups the benchmark runs (issue 31): which platform models, at which
// concurrency, and the ideal time of each, as the limit allows it.
//
// The whole cross-product (3 limits in flight and 3 rate limits, 2 or 3 ways of refusing,
// 5 Retry-After styles, 3 concurrencies: 225 cases) would take an hour; the full run takes
// this subset, 52 cases (about 9 minutes on 2 cores, most of it the action's own time):
// - limits of 2, 4 and 8 in flight, at each concurrency above the limit (2 at 4, 8 and 32;
//   4 at 8 and 32; 8 at 32: at or under the limit nothing is ever turned away), each refused
//   at once, after the latency, and after the latency counted in flight: 18 cells, each
//   with 2 Retry-After styles in turn, so that every style meets every way of refusing;
// - token buckets of 20/s (burst 5) and 50/s (burst 10), and a sliding window of 50 per
//   second, each refused at once and after the latency (counted in flight or not changes
//   nothing to a rate), 2 cases each, the styles and concurrencies in turn: every style
//   meets each kind of rate;
// - apart: a limit of 2 in flight and a bucket of 50/s, each half taken by another job for
//   2 s then given back; 503 bursts in a limit of 4 in flight; and a Retry-After far beyond
//   totalTimeout (reported apart: tokens are left, and what the step says is what counts).
// `--quick` runs 7 of them: one of each kind.
import { Throttle } from '../test/support/fake-platform/throttle.mjs'

/** @typedef {import('../test/support/fake-platform/throttle.mjs').ThrottleSpec} ThrottleSpec */
/** @typedef {import('../test/support/fake-platform/throttle.mjs').RetryAfterStyle} RetryAfterStyle */

/**
 * @typedef {object} Case
 * @property {ThrottleSpec} spec the platform's throttle, set anew before each run
 * @property {number} concurrency the action's input (and the bare clients' most in flight)
 * @property {string} [apart] what sets the case apart, for the table: a share, 503 bursts
 * @property {number} [totalTimeout] the action's input, in seconds (default 60: no case
 *   stalls the benchmark for longer)
 * @property {boolean} [quick] run by `--quick` too
 */

/** @type {RetryAfterStyle[]} */
const STYLES = ['none', '0', 'seconds', 'fractional', 'date']
/** The style of the `turn`-th case of a cell: the styles in turn, two a cell. */
const styleOf = (/** @type {number} */ cell, /** @type {number} */ turn) =>
  STYLES[(2 * cell + turn) % STYLES.length] ?? 'seconds'
/** @type {Pick<ThrottleSpec, 'rejects' | 'rejectedInFlight'>[]} */
const REFUSALS = [
  { rejects: 'at once' },
  { rejects: 'after latency' },
  { rejects: 'after latency', rejectedInFlight: true },
]
/** A limit in flight, and the concurrencies above it. */
const IN_FLIGHT = /** @type {const} */ ([
  [2, [4, 8, 32]],
  [4, [8, 32]],
  [8, [32]],
])
/** @type {NonNullable<ThrottleSpec['limit']>[]} */
const RATES = [
  { perSecond: 20, burst: 5 },
  { perSecond: 50, burst: 10 },
  { perWindow: 50, windowMs: 1000 },
]
const CONCURRENCIES = [4, 8, 32]
/** Another job holds half the limit for 2 s, from a moment the revokes have begun. */
const HALF_FOR_2_S = [{ fromMs: 500, untilMs: 2500, share: 0.5 }]

/** @param {boolean} quick @returns {Case[]} */
export function throttledCases(quick = false) {
  /** @type {Case[]} */
  const cases = []
  let cell = 0
  for (const [inFlight, concurrencies] of IN_FLIGHT)
    for (const concurrency of concurrencies)
      for (const refusal of REFUSALS) {
        for (const turn of [0, 1]) {
          const retryAfter = styleOf(cell, turn)
          const spec = { limit: { inFlight }, ...refusal, retryAfter }
          cases.push({ spec, concurrency, quick: [4, 15].includes(cell) && turn === 0 })
        }
        cell++
      }
  cell = 0
  for (const limit of RATES)
    for (const rejects of /** @type {const} */ (['at once', 'after latency'])) {
      for (const turn of [0, 1]) {
        const retryAfter = styleOf(cell, turn)
        const concurrency = CONCURRENCIES[(cell + turn) % CONCURRENCIES.length] ?? 8
        const quick = [2, 5].includes(cell) && turn === 0
        cases.push({ spec: { limit, rejects, retryAfter }, concurrency, quick })
      }
      cell++
    }
  const shared = 'another job holds half for 2 s'
  cases.push(
    {
      spec: { limit: { inFlight: 2 }, retryAfter: 'seconds', shared: HALF_FOR_2_S },
      concurrency: 8,
      apart: shared,
      quick: true,
    },
    {
      spec: {
        limit: { perSecond: 50, burst: 10 },
        rejects: 'at once',
        retryAfter: 'seconds',
        shared: HALF_FOR_2_S,
      },
      concurrency: 8,
      apart: shared,
    },
    {
      spec: {
        limit: { inFlight: 4 },
        rejects: 'at once',
        retryAfter: 'none',
        outages: [
          { fromMs: 500, untilMs: 800 },
          { fromMs: 1500, untilMs: 1800 },
        ],
      },
      concurrency: 8,
      apart: '503 for 0.3 s twice',
      quick: true,
    },
    {
      spec: { limit: { inFlight: 4 }, rejects: 'at once', retryAfter: 'far' },
      concurrency: 8,
      totalTimeout: 10,
      quick: true,
    },
  )
  return quick ? cases.filter((c) => c.quick) : cases
}

/**
 * The ideal time of a cleanup of `tokens`: start-up, the token and the list, then the
 * revokes as fast as the limit lets them through (Throttle.capacity(), our share of it
 * included), at most `concurrency` at once each taking the latency, none in an outage; a
 * bucket's burst or a window's count lets that many through at once, but for the list's.
 * A window lets its count through a window apart, not at a steady rate: its ideal is short
 * of what even the floor can do by up to a window (the list and 300 revokes fill 6 windows of
 * 50, the last revoke 1 s after this ideal).
 * @param {Case} c
 * @param {{ latencyMs: number, tokens: number, startMs: number }} workload
 */
export function idealMs(c, { latencyMs, tokens, startMs }) {
  // On the throttle's clock: it starts as the step does.
  const throttle = new Throttle(c.spec, 0)
  const { limit } = c.spec
  let done = 0
  if (limit !== undefined && 'burst' in limit) done = limit.burst - 1
  if (limit !== undefined && 'perWindow' in limit) done = limit.perWindow - 1
  let t = startMs + 2 * latencyMs
  for (; done < tokens; t++) {
    if (throttle.inOutage(t)) continue
    const { inFlight, perSecond } = throttle.capacity(t)
    done += Math.min(Math.min(inFlight, c.concurrency) / latencyMs, perSecond / 1000)
  }
  return t
}

/** How the table names a case's limit. @param {Case} c */
export function limitName(c) {
  const { limit } = c.spec
  const name =
    limit === undefined
      ? 'none'
      : 'inFlight' in limit
        ? `${limit.inFlight} in flight`
        : 'perSecond' in limit
          ? `${limit.perSecond}/s, burst ${limit.burst}`
          : `${limit.perWindow} per ${limit.windowMs / 1000} s window`
  return c.apart === undefined ? name : `${name}; ${c.apart}`
}

/** How the table names the way a case's platform refuses. @param {Case} c */
export function refusalName(c) {
  const rejects = c.spec.rejects ?? 'after latency'
  return c.spec.rejectedInFlight ? `${rejects}, counted in flight` : rejects
}
