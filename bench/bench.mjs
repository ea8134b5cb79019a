// @ts-check
/**
 * `npm run bench`: the action's performance, each figure a ratio measured in the same
 * run, A and B interleaved, over several runs, medians. It runs the committed bundle on
 * Node 24 the way the runner does (inputs as INPUT_*, GITHUB_* files, stdout read
 * through a pipe) against the fake platform with a latency on every answer. It reports;
 * it does not pass or fail. `--quick` makes fewer runs; `--latency=MS`,
 * `--cleanup-tokens=N` and `--list-tokens=N` change the workload (the targets are for
 * the defaults: 20 ms, 300 and 10,000).
 *
 *   1. cold start: the bundle with no inputs (failing on the missing operation) / `node -e 0`
 *   2. bundle size of the main entry file
 *   3. create, end to end: the curl + jq recipe's time / the action's time; gateway-token's
 *      create / the action's, and what exec adds to a create followed by the command
 *   4. cleanup of 300 old tokens, concurrency 8: ideal time / the action's, and a curl loop's / the action's
 *   5. list of 10,000 tokens: the step's peak memory (RSS)
 *   6. throttled cleanups of 300 (bench/throttled.mjs) under each way a platform throttles
 *      (bench/throttled-cases.mjs: limits in flight, token buckets, sliding windows, a 429
 *      at once or after the latency, every Retry-After style, a share taken by another job,
 *      503 bursts, a Retry-After far beyond totalTimeout): the ideal / the action's time,
 *      tokens left, most sends of one revoke, a client that knows the limit and one that
 *      learns it at its first 429, and whether each meets the targets
 *      (bench/throttled-table.mjs). `--no-throttled` leaves them out; `--throttled-only`
 *      runs only them (about 9 minutes on 2 cores; `--quick`, 7 of them, 2 minutes).
 *
 * `--grid` runs only the simulated grid instead (bench/grid.mjs).
 */
import { spawnSync } from 'node:child_process'
import { statSync } from 'node:fs'
import { cpus } from 'node:os'
import { join } from 'node:path'
import { startFakePlatform } from '../test/support/fake-platform.mjs'
import { ROOT } from '../test/support/runner.mjs'
import {
  available,
  ENTRY,
  median,
  NODE,
  progress,
  recipeEnv,
  runStep,
  succeeded,
  timed,
  markdownTable,
} from './lib.mjs'
import { create } from './create.mjs'
import { listMemory } from './list-memory.mjs'
import { throttled } from './throttled.mjs'
import { throttledCases } from './throttled-cases.mjs'
import { throttledTable } from './throttled-table.mjs'

const QUICK = process.argv.includes('--quick')
/** @param {string} name @param {number} fallback */
const option = (name, fallback) => {
  const given = process.argv.find((arg) => arg.startsWith(`--${name}=`))
  return given === undefined ? fallback : Number(given.slice(name.length + 3))
}
const LATENCY_MS = option('latency', 20)
const CLEANUP_TOKENS = option('cleanup-tokens', 300)
const CLEANUP_CONCURRENCY = 8
const LIST_TOKENS = option('list-tokens', 10_000)
const DAY = 86_400_000
const TARGETS = {
  coldStart: 2.5,
  bundleKB: 500,
  createVsCurl: 0.8,
  cleanupVsIdeal: 0.8,
  cleanupVsLoop: 5,
  listRssMiB: 100,
  cliVsAction: 1.1,
  execAddsMs: 20,
}

async function coldStart() {
  progress('cold start')
  const runs = QUICK ? 9 : 31
  const base = []
  const action = []
  for (let i = 0; i < runs; i++) {
    base.push(
      await succeeded(timed(NODE, ['-e', '0'], { PATH: process.env.PATH ?? '' }), 'node -e 0'),
    )
    action.push((await runStep({})).ms)
  }
  return { nodeMs: median(base), actionMs: median(action), ratio: median(action) / median(base) }
}

function bundleSize() {
  return {
    mainKB: statSync(ENTRY).size / 1000,
    postKB: statSync(join(ROOT, 'dist/post/index.js')).size / 1000,
  }
}

/** @param {number} startMs the cold start, for the ideal */
async function cleanup(startMs) {
  progress(`cleanup of ${CLEANUP_TOKENS} tokens`)
  const platform = await startFakePlatform({ latencyMs: LATENCY_MS })
  const seed = () => {
    platform.tokens.clear()
    for (let i = 0; i < CLEANUP_TOKENS; i++)
      platform.seed({ name: `ci-${i % 30}`, ageMs: (31 + i) * DAY })
    platform.seed({ name: 'fresh', ageMs: DAY })
  }
  try {
    const runs = QUICK ? 1 : 3
    const action = []
    const loop = []
    const withCurl = available('curl') && available('jq') && available('date')
    for (let i = 0; i < runs; i++) {
      seed()
      const step = await runStep({
        ...platform.connectionInputs(),
        operation: 'cleanup',
        olderThan: '30d',
        // Every token old: the newest of each name too (keep defaults to 1 since issue 16).
        keep: '0',
        concurrency: String(CLEANUP_CONCURRENCY),
      })
      const revoked = [...platform.tokens.values()].filter((t) => t.state === 'revoked').length
      if (step.code !== 0 || revoked !== CLEANUP_TOKENS)
        throw new Error(`the action revoked ${revoked} tokens`)
      action.push(step.ms)
      if (withCurl) {
        seed()
        const env = recipeEnv(platform, { OLDER_THAN_DAYS: '30' })
        loop.push(
          await succeeded(
            timed('bash', [join(ROOT, 'bench/curl-cleanup.sh')], env),
            'bench/curl-cleanup.sh',
          ),
        )
        const left = [...platform.tokens.values()].filter(
          (t) => t.state === 'active' && t.name !== 'fresh',
        ).length
        if (left > 0) throw new Error(`bench/curl-cleanup.sh left ${left} old tokens active`)
      }
    }
    // As the issue defines it: start-up + tokens / concurrency × latency + two requests.
    const idealMs = startMs + (CLEANUP_TOKENS / CLEANUP_CONCURRENCY) * LATENCY_MS + 2 * LATENCY_MS
    const loopMs = withCurl ? median(loop) : undefined
    return {
      actionMs: median(action),
      idealMs,
      loopMs,
      vsIdeal: idealMs / median(action),
      vsLoop: loopMs === undefined ? undefined : loopMs / median(action),
    }
  } finally {
    await platform.close()
  }
}

if (process.argv.includes('--grid')) process.exit((await import('./grid.mjs')).grid())
process.stderr.write(
  `Benchmark: Node ${spawnSync(NODE, ['--version']).stdout.toString().trim()}, ${cpus().length} cores, ` +
    `${LATENCY_MS} ms latency, cleanup of ${CLEANUP_TOKENS}, list of ${LIST_TOKENS}${QUICK ? ', quick' : ''}\n`,
)
const ONLY_THROTTLED = process.argv.includes('--throttled-only')
const start = await coldStart()
const size = bundleSize()
const made = ONLY_THROTTLED ? undefined : await create({ latencyMs: LATENCY_MS, quick: QUICK })
const cleaned = ONLY_THROTTLED ? undefined : await cleanup(start.actionMs)
const listed = ONLY_THROTTLED
  ? undefined
  : await listMemory({ listTokens: LIST_TOKENS, quick: QUICK })
const limited = process.argv.includes('--no-throttled')
  ? []
  : await throttled(throttledCases(QUICK), {
      latencyMs: LATENCY_MS,
      tokens: CLEANUP_TOKENS,
      startMs: start.actionMs,
    })
if (made === undefined || cleaned === undefined || listed === undefined) {
  console.log(throttledTable(limited, CLEANUP_TOKENS))
  console.log(JSON.stringify({ throttled: limited }))
  process.exit(0)
}

const round = (/** @type {number | undefined} */ n, digits = 2) =>
  n === undefined ? null : Number(n.toFixed(digits))
const result = {
  workload: {
    latencyMs: LATENCY_MS,
    cleanupTokens: CLEANUP_TOKENS,
    concurrency: CLEANUP_CONCURRENCY,
    listTokens: LIST_TOKENS,
  },
  coldStart: {
    ratio: round(start.ratio),
    actionMs: round(start.actionMs, 1),
    nodeMs: round(start.nodeMs, 1),
    target: `<= ${TARGETS.coldStart}`,
  },
  bundle: {
    mainKB: round(size.mainKB, 1),
    postKB: round(size.postKB, 1),
    target: `<= ${TARGETS.bundleKB}`,
  },
  create: {
    vsCurl: round(made.ratio),
    actionMs: round(made.actionMs, 1),
    curlMs: round(made.curlMs, 1),
    nodeFloorMs: round(made.nodeFloorMs, 1),
    floorVsCurl: round(made.floorRatio),
    target: `>= ${TARGETS.createVsCurl}`,
    cliMs: round(made.cliMs, 1),
    cliVsAction: round(made.cliVsAction),
    execMs: round(made.execMs, 1),
    createThenTrueMs: round(made.createThenTrueMs, 1),
    execAddsMs: round(made.execAddsMs, 1),
    execRevokingMs: round(made.execRevokingMs, 1),
  },
  cleanup: {
    vsIdeal: round(cleaned.vsIdeal),
    vsLoop: round(cleaned.vsLoop, 1),
    actionMs: round(cleaned.actionMs, 0),
    idealMs: round(cleaned.idealMs, 0),
    loopMs: round(cleaned.loopMs, 0),
    target: `>= ${TARGETS.cleanupVsIdeal} of ideal, >= ${TARGETS.cleanupVsLoop}x the loop`,
  },
  list: {
    peakMiB: round(listed.peakMiB, 1),
    ms: round(listed.ms, 0),
    nodeFloorMiB: round(listed.floorMiB, 1),
    nodeFloorWithTlsMiB: round(listed.tlsFloorMiB, 1),
    nodeMiB: round(listed.nodeMiB, 1),
    target: `<= ${TARGETS.listRssMiB}`,
  },
}

const met = (/** @type {boolean} */ ok) => (ok ? 'met' : 'NOT met')
const rows = [
  [
    'Cold start / node -e 0',
    `${result.coldStart.ratio}x (${result.coldStart.actionMs} ms / ${result.coldStart.nodeMs} ms)`,
    result.coldStart.target,
    met(start.ratio <= TARGETS.coldStart),
  ],
  [
    'Bundle, main entry',
    `${result.bundle.mainKB} KB (post: ${result.bundle.postKB} KB)`,
    `${result.bundle.target} KB`,
    met(size.mainKB <= TARGETS.bundleKB),
  ],
  [
    'Create: curl+jq time / action time',
    made.ratio === undefined
      ? 'no curl or jq here'
      : `${result.create.vsCurl}x (${result.create.curlMs} ms / ${result.create.actionMs} ms)`,
    result.create.target,
    made.ratio === undefined ? '-' : met(made.ratio >= TARGETS.createVsCurl),
  ],
  [
    '  bare node:http, same calls',
    made.floorRatio === undefined
      ? '-'
      : `${result.create.floorVsCurl}x (${result.create.nodeFloorMs} ms)`,
    'what Node.js itself needs',
    '',
  ],
  [
    'gateway-token create / action; exec -- true beyond create then true',
    `${result.create.cliVsAction}x (${result.create.cliMs} ms); ${result.create.execAddsMs} ms (${result.create.execMs} ms / ${result.create.createThenTrueMs} ms; with its revoke ${result.create.execRevokingMs} ms)`,
    `<= ${TARGETS.cliVsAction}; <= ${TARGETS.execAddsMs} ms`,
    met(made.cliVsAction <= TARGETS.cliVsAction && made.execAddsMs <= TARGETS.execAddsMs),
  ],
  [
    `Cleanup ${CLEANUP_TOKENS}: ideal / action`,
    `${result.cleanup.vsIdeal}x (${result.cleanup.idealMs} ms / ${result.cleanup.actionMs} ms)`,
    `>= ${TARGETS.cleanupVsIdeal}`,
    met(cleaned.vsIdeal >= TARGETS.cleanupVsIdeal),
  ],
  [
    `Cleanup ${CLEANUP_TOKENS}: curl loop / action`,
    cleaned.vsLoop === undefined
      ? 'no curl or jq here'
      : `${result.cleanup.vsLoop}x (${result.cleanup.loopMs} ms)`,
    `>= ${TARGETS.cleanupVsLoop}`,
    cleaned.vsLoop === undefined ? '-' : met(cleaned.vsLoop >= TARGETS.cleanupVsLoop),
  ],
  [
    `List ${LIST_TOKENS}: peak RSS`,
    `${result.list.peakMiB} MiB (in ${result.list.ms} ms)`,
    `${result.list.target} MiB`,
    met(listed.peakMiB <= TARGETS.listRssMiB),
  ],
  [
    '  bare node:http, same list',
    `${result.list.nodeFloorMiB} MiB; with https loaded ${result.list.nodeFloorWithTlsMiB} MiB (node -e 0: ${result.list.nodeMiB} MiB)`,
    'what Node.js itself needs',
    '',
  ],
]
console.log(markdownTable(['Figure', 'Measured', 'Target', ''], rows))
if (limited.length > 0)
  console.log(
    `\nThrottled cleanups of ${CLEANUP_TOKENS}:\n\n${throttledTable(limited, CLEANUP_TOKENS)}\n`,
  )
console.log(JSON.stringify({ ...result, throttled: limited }))
