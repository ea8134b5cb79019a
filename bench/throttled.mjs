// @ts-check
// The benchmark's throttled cleanups (issues 17, 31): 300 old tokens, 20 ms of latency, under
// each platform model of throttled-cases.mjs. Each case runs the action, then the floor (a
// client that knows the limit: node-throttled-floor.mjs) and, under a limit in flight, a
// bare client that does not know it and learns it perfectly at its first 429
// (node-throttled-adaptive.mjs): each on fresh tokens and a throttle set anew, so that none
// inherits another's bucket, window or share. throttled-table.mjs prints the rows.
import { join } from 'node:path'
import { startFakePlatform } from '../test/support/fake-platform.mjs'
import { ROOT } from '../test/support/runner.mjs'
import { NODE, progress, recipeEnv, runStep, succeeded, timed } from './lib.mjs'
import { idealMs, limitName, refusalName } from './throttled-cases.mjs'

/** @typedef {import('./throttled-cases.mjs').Case} Case */
/** @typedef {import('../test/support/fake-platform.mjs').FakePlatform} FakePlatform */
/** @typedef {{ latencyMs: number, tokens: number, startMs: number }} Workload */

const DAY = 86_400_000
const FLOOR = 'bench/node-throttled-floor.mjs'
const LEARNER = 'bench/node-throttled-adaptive.mjs'
/** The most of a line the step wrote that a row keeps. */
const MAX_SAID = 400

/**
 * @typedef {object} Row
 * @property {Case} case
 * @property {number} idealMs
 * @property {number} actionMs
 * @property {number | null} exitCode
 * @property {number} left the tokens the action left active
 * @property {number} mostSends the most times the action sent one revoke
 * @property {string[]} said what the step said of it: its errors (a case of a far Retry-After)
 * @property {number} floorMs
 * @property {number} floor429 the 429s the floor met: none but by a hair of clock
 * @property {number | undefined} learnerMs the client that learns the limit (in flight only)
 */

/**
 * Runs each case once (some take seconds each) and returns a row per case.
 * @param {Case[]} cases
 * @param {Workload} workload
 * @returns {Promise<Row[]>}
 */
export async function throttled(cases, workload) {
  const rows = []
  for (const c of cases) {
    const retryAfter = c.spec.retryAfter ?? 'seconds'
    progress(
      `throttled cleanup: ${limitName(c)}, ${refusalName(c)}, Retry-After ${retryAfter}, concurrency ${c.concurrency}`,
    )
    const platform = await startFakePlatform({ latencyMs: workload.latencyMs })
    try {
      rows.push(await runCase(c, platform, workload))
    } finally {
      await platform.close()
    }
  }
  return rows
}

/**
 * @param {Case} c
 * @param {FakePlatform} platform
 * @param {Workload} workload
 * @returns {Promise<Row>}
 */
async function runCase(c, platform, workload) {
  /** Fresh tokens and the throttle set anew; returns when it started, on the platform's clock. */
  const fresh = () => {
    platform.tokens.clear()
    for (let i = 0; i < workload.tokens; i++)
      platform.seed({ name: `ci-${i % 30}`, ageMs: (31 + i) * DAY })
    platform.requests = []
    const startedAt = platform.now()
    platform.throttle = c.spec
    return startedAt
  }
  const active = () => [...platform.tokens.values()].filter((t) => t.state === 'active').length
  const far = c.spec.retryAfter === 'far'

  fresh()
  const inputs = {
    ...platform.connectionInputs(),
    operation: 'cleanup',
    olderThan: '30d',
    keep: '0',
    concurrency: String(c.concurrency),
    totalTimeout: String(c.totalTimeout ?? 60),
  }
  const step = await runStep(inputs, [], {}, { keepStdout: far })
  const left = active()
  /** @type {Map<string, number>} */
  const sends = new Map()
  for (const line of platform.requestLines('api').filter((l) => l.includes('/revoke')))
    sends.set(line, (sends.get(line) ?? 0) + 1)

  const env = {
    OLDER_THAN_DAYS: '30',
    IN_FLIGHT: String(c.concurrency),
    THROTTLE: JSON.stringify(c.spec),
  }
  const startedAt = fresh()
  const floorEnv = recipeEnv(platform, { ...env, THROTTLE_START: String(startedAt) })
  const floorMs = await succeeded(timed(NODE, [join(ROOT, FLOOR)], floorEnv), FLOOR)
  const floor429 = platform.throttled
  if (active() > 0) throw new Error(`${FLOOR} left ${active()} tokens`)

  // A client that learns the limit at its first 429: what not knowing it costs at least. It
  // would wait out a far Retry-After: an hour.
  let learnerMs
  const { limit } = c.spec
  if (limit !== undefined && 'inFlight' in limit && !far) {
    fresh()
    const learnerEnv = recipeEnv(platform, { ...env, LIMIT: String(limit.inFlight) })
    learnerMs = await succeeded(timed(NODE, [join(ROOT, LEARNER)], learnerEnv), LEARNER)
    if (active() > 0) throw new Error(`${LEARNER} left ${active()} tokens`)
  }
  return {
    case: c,
    idealMs: idealMs(c, workload),
    actionMs: step.ms,
    exitCode: step.code,
    left,
    mostSends: Math.max(0, ...sends.values()),
    said: step.stdout
      .split('\n')
      .filter((line) => line.startsWith('::error'))
      .map((line) => line.slice(0, MAX_SAID)),
    floorMs,
    floor429,
    learnerMs,
  }
}
