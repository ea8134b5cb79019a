// @ts-check
// The benchmark's throttled cleanups (issue 17): 300 old tokens, 20 ms of latency, against a
// platform that limits requests in flight (429 with Retry-After 1, 0 or none) or requests a
// second (a token bucket), at concurrency 4, 8 and 32. Each case gives the ideal (what the
// limit allows, start-up and the two first requests included), the action's time and the
// tokens it left active, the most times it sent one revoke, the floor: a client that knows
// the limit (node-throttled-floor.mjs), and under a limit in flight, a bare client that does
// not know it and learns it perfectly at its first 429 (node-throttled-adaptive.mjs). The target: no token left, and at
// least 0.67 of the ideal, where a client that does not know the limit can reach it.
import { join } from 'node:path'
import { startFakePlatform } from '../test/support/fake-platform.mjs'
import { ROOT } from '../test/support/runner.mjs'
import { median, NODE, progress, recipeEnv, runStep, succeeded, timed } from './lib.mjs'

const DAY = 86_400_000

/**
 * @typedef {object} Case
 * @property {string} limit how the table names the limit
 * @property {{ max: number } | undefined} inFlight
 * @property {{ perSecond: number, burst: number } | undefined} rate
 * @property {'seconds' | '0' | 'none'} retryAfter
 * @property {number} concurrency
 */

/** @returns {Case[]} every combination of the limits, Retry-After and concurrency (quick: 5) */
export function throttledCases(quick = false) {
  /** @type {Case[]} */
  const cases = []
  for (const max of [2, 4, 8])
    for (const retryAfter of /** @type {const} */ (['seconds', '0', 'none']))
      for (const concurrency of [4, 8, 32])
        cases.push({
          limit: `${max} in flight`,
          inFlight: { max },
          rate: undefined,
          retryAfter,
          concurrency,
        })
  for (const [perSecond, burst] of /** @type {const} */ ([
    [20, 5],
    [50, 10],
  ]))
    for (const retryAfter of /** @type {const} */ (['seconds', '0', 'none']))
      for (const concurrency of [4, 8, 32]) {
        cases.push({
          limit: `${perSecond}/s, burst ${burst}`,
          inFlight: undefined,
          rate: { perSecond, burst },
          retryAfter,
          concurrency,
        })
      }
  return quick ? cases.filter((_, i) => i % 9 === 4) : cases
}

/**
 * Runs each case once (the rate cases take seconds each) and returns a row per case.
 * @param {Case[]} cases
 * @param {{ latencyMs: number, tokens: number, startMs: number }} workload
 */
export async function throttled(cases, { latencyMs, tokens, startMs }) {
  const rows = []
  for (const c of cases) {
    progress(
      `throttled cleanup: ${c.limit}, Retry-After ${c.retryAfter}, concurrency ${c.concurrency}`,
    )
    const platform = await startFakePlatform({ latencyMs })
    try {
      const seed = () => {
        platform.tokens.clear()
        for (let i = 0; i < tokens; i++)
          platform.seed({ name: `ci-${i % 30}`, ageMs: (31 + i) * DAY })
      }
      const limit = () => {
        const limit = c.inFlight ? { inFlight: c.inFlight.max } : c.rate
        platform.throttle = { ...(limit && { limit }), retryAfter: c.retryAfter }
      }
      seed()
      limit()
      platform.requests = []
      const step = await runStep({
        ...platform.connectionInputs(),
        operation: 'cleanup',
        olderThan: '30d',
        keep: '0',
        concurrency: String(c.concurrency),
      })
      const left = [...platform.tokens.values()].filter((t) => t.state === 'active').length
      const sends = new Map()
      for (const line of platform.requestLines('api').filter((l) => l.includes('/revoke')))
        sends.set(line, (sends.get(line) ?? 0) + 1)

      // The floor: a client that knows the limit, on a fresh platform of the same kind.
      seed()
      limit() // a new throttle: its bucket full again
      const floorEnv = recipeEnv(platform, {
        OLDER_THAN_DAYS: '30',
        IN_FLIGHT: String(Math.min(c.inFlight?.max ?? Infinity, c.concurrency)),
        ...(c.rate && { PER_SECOND: String(c.rate.perSecond), BURST: String(c.rate.burst) }),
      })
      const floorMs = await succeeded(
        timed(NODE, [join(ROOT, 'bench/node-throttled-floor.mjs')], floorEnv),
        'bench/node-throttled-floor.mjs',
      )
      // A client that learns the limit at its first 429: what not knowing it costs at least.
      let adaptiveMs
      if (c.inFlight) {
        seed()
        limit()
        adaptiveMs = await succeeded(
          timed(NODE, [join(ROOT, 'bench/node-throttled-adaptive.mjs')], {
            ...floorEnv,
            IN_FLIGHT: String(c.concurrency),
            LIMIT: String(c.inFlight.max),
          }),
          'bench/node-throttled-adaptive.mjs',
        )
        const leftByIt = [...platform.tokens.values()].filter((t) => t.state === 'active').length
        if (leftByIt > 0) throw new Error(`node-throttled-adaptive.mjs left ${leftByIt} tokens`)
      }
      const idealMs =
        startMs +
        2 * latencyMs +
        (c.rate
          ? ((tokens - (c.rate.burst - 1)) / c.rate.perSecond) * 1000
          : Math.ceil(tokens / Math.min(c.inFlight?.max ?? Infinity, c.concurrency)) * latencyMs)
      rows.push({
        ...c,
        idealMs,
        actionMs: step.ms,
        exitCode: step.code,
        left,
        mostSends: Math.max(0, ...sends.values()),
        floorMs,
        adaptiveMs,
      })
    } finally {
      await platform.close()
    }
  }
  return rows
}

/** @param {Awaited<ReturnType<typeof throttled>>} rows */
export function throttledTable(rows) {
  const ratio = (/** @type {number} */ a, /** @type {number} */ b) => (a / b).toFixed(2)
  const lines = [
    '| platform limit | Retry-After | concurrency | ideal | action | tokens left | most sends of one | floor (knows the limit) | learns it at the first 429 |',
    '|---|---|---|---|---|---|---|---|---|',
  ]
  const time = (/** @type {number} */ ms, /** @type {number} */ ideal) =>
    `${(ms / 1000).toFixed(1)} s (${ratio(ideal, ms)})`
  for (const r of rows) {
    const exit = r.exitCode === 0 ? '' : `, exit ${r.exitCode}`
    lines.push(
      `| ${r.limit} | ${r.retryAfter === 'seconds' ? '1 s' : r.retryAfter} | ${r.concurrency} | ${(r.idealMs / 1000).toFixed(1)} s | ${time(r.actionMs, r.idealMs)}${exit} | ${r.left} | ${r.mostSends} | ${time(r.floorMs, r.idealMs)} | ${r.adaptiveMs === undefined ? '' : time(r.adaptiveMs, r.idealMs)} |`,
    )
  }
  const ratios = rows.map((r) => r.idealMs / r.actionMs)
  lines.push(
    '',
    `Median ${median(ratios).toFixed(2)} of the ideal, worst ${Math.min(...ratios).toFixed(2)}; ${rows.reduce((n, r) => n + r.left, 0)} tokens left in all; a revoke sent at most ${Math.max(...rows.map((r) => r.mostSends))} times.`,
  )
  return lines.join('\n')
}
