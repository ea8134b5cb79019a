// @ts-check
// The throttled cleanups' table (issue 31): a row per case, whether it meets the targets, the
// median and worst ratios, and the case of a far Retry-After apart.
import { retryAfterHeader } from '../test/support/fake-platform/throttle.mjs'
import { median } from './lib.mjs'
import { limitName, refusalName } from './throttled-cases.mjs'

/** @typedef {import('./throttled.mjs').Row} Row */

/**
 * The targets of issue 31: at least this share of the ideal, or, where even the floor
 * cannot reach it, at most VS_FLOOR times the floor's time; no token left; no revoke sent
 * more than the default retries (3) + 1 times; exit code 0.
 */
const OF_IDEAL = 0.8
const VS_FLOOR = 1.25
const MOST_SENDS = 4

/** @param {Row} r */
const isFar = (r) => r.case.spec.retryAfter === 'far'

/** Whether a row meets the targets. @param {Row} r */
function meets(r) {
  const pace =
    r.idealMs / r.actionMs >= OF_IDEAL ||
    (r.idealMs / r.floorMs < OF_IDEAL && r.actionMs <= VS_FLOOR * r.floorMs)
  return pace && r.left === 0 && r.mostSends <= MOST_SENDS && r.exitCode === 0
}

/**
 * @param {Row[]} rows
 * @param {number} tokens
 */
export function throttledTable(rows, tokens) {
  const s = (/** @type {number} */ ms) => `${(ms / 1000).toFixed(1)} s`
  const time = (/** @type {number} */ ms, /** @type {number} */ ideal) =>
    `${s(ms)} (${(ideal / ms).toFixed(2)})`
  const lines = [
    '| platform limit | 429 | Retry-After | concurrency | ideal | action (ideal / action) | tokens left | most sends of one | exit | floor (knows the limit) | learns it at the first 429 | action / floor | target |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ]
  const measured = rows.filter((r) => !isFar(r))
  for (const r of measured) {
    const floor = `${time(r.floorMs, r.idealMs)}${r.floor429 > 0 ? `, ${r.floor429} × 429` : ''}`
    const learner = r.learnerMs === undefined ? '' : time(r.learnerMs, r.idealMs)
    lines.push(
      `| ${[
        limitName(r.case),
        refusalName(r.case),
        r.case.spec.retryAfter ?? 'seconds',
        r.case.concurrency,
        s(r.idealMs),
        time(r.actionMs, r.idealMs),
        r.left,
        r.mostSends,
        r.exitCode,
        floor,
        learner,
        `${(r.actionMs / r.floorMs).toFixed(2)}×`,
        meets(r) ? 'met' : 'NOT met',
      ].join(' | ')} |`,
    )
  }
  if (measured.length > 0) lines.push('', summary(measured))
  for (const r of rows.filter(isFar)) lines.push('', farCase(r, tokens))
  return lines.join('\n')
}

/** The median and worst ratios, and how many cases meet the targets. @param {Row[]} rows */
function summary(rows) {
  const ratios = rows.map((r) => r.idealMs / r.actionMs)
  const worst = rows.reduce((a, b) => (b.idealMs / b.actionMs < a.idealMs / a.actionMs ? b : a))
  const slowest = rows.reduce((a, b) => (b.actionMs / b.floorMs > a.actionMs / a.floorMs ? b : a))
  const name = (/** @type {Row} */ r) =>
    `${limitName(r.case)}, ${refusalName(r.case)}, Retry-After ${r.case.spec.retryAfter ?? 'seconds'}, concurrency ${r.case.concurrency}`
  return [
    `Median ${median(ratios).toFixed(2)} of the ideal, worst ${Math.min(...ratios).toFixed(2)} (${name(worst)}).`,
    `Worst action / floor: ${(slowest.actionMs / slowest.floorMs).toFixed(2)}× (${name(slowest)}).`,
    `Targets (${OF_IDEAL} of the ideal, or within ${VS_FLOOR}× the floor where it cannot reach ${OF_IDEAL}; no token left; at most ${MOST_SENDS} sends; exit 0) met in ${rows.filter(meets).length} of ${rows.length} cases;`,
    `${rows.reduce((n, r) => n + r.left, 0)} tokens left in all; a revoke sent at most ${Math.max(...rows.map((r) => r.mostSends))} times.`,
  ].join('\n')
}

/**
 * A Retry-After far beyond totalTimeout: the tokens are left, and what counts is that the
 * step says so, and why.
 * @param {Row} r
 * @param {number} tokens
 */
function farCase(r, tokens) {
  const said = r.said.length === 0 ? 'no error' : r.said.map((line) => `  ${line}`).join('\n')
  return [
    `Retry-After far beyond totalTimeout (${limitName(r.case)}, ${refusalName(r.case)}, Retry-After ${retryAfterHeader('far', 0, 0)['Retry-After']} s, concurrency ${r.case.concurrency}, totalTimeout ${r.case.totalTimeout ?? 60} s):`,
    `the action took ${(r.actionMs / 1000).toFixed(1)} s, exit ${r.exitCode}, ${r.left} of ${tokens} tokens left, a revoke sent at most ${r.mostSends} times; the floor ${(r.floorMs / 1000).toFixed(1)} s. The step said:`,
    said,
  ].join('\n')
}
