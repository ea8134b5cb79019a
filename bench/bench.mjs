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
 *   3. create, end to end: the curl + jq recipe's time / the action's time
 *   4. cleanup of 300 old tokens, concurrency 8: ideal time / the action's, and a curl loop's / the action's
 *   5. list of 10,000 tokens: the step's peak memory (RSS)
 */
import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { startFakePlatform } from '../test/support/fake-platform.mjs'
import { node24 } from '../test/support/node24.mjs'
import { prepareStep, ROOT } from '../test/support/runner.mjs'

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
const NODE = node24()
const ENTRY = join(ROOT, 'dist/index.js')
const TARGETS = {
  coldStart: 2.5,
  bundleKB: 500,
  createVsCurl: 0.8,
  cleanupVsIdeal: 0.8,
  cleanupVsLoop: 5,
  listRssMiB: 100,
}

/** @param {number[]} values */
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2
}

/**
 * Runs a command to its end, stdout read through a pipe as the runner reads it.
 * @param {string} command
 * @param {string[]} args
 * @param {Record<string, string>} env
 * @returns {Promise<{ ms: number, code: number | null }>}
 */
function timed(command, args, env) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint()
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'ignore'] })
    child.stdout.resume()
    child.on('error', reject)
    child.on('close', (code) =>
      resolve({ ms: Number(process.hrtime.bigint() - started) / 1e6, code }),
    )
  })
}

/**
 * The time of a run that must succeed: a comparison that failed early would look fast.
 * @param {Promise<{ ms: number, code: number | null }>} run
 * @param {string} what
 */
async function succeeded(run, what) {
  const { ms, code } = await run
  if (code !== 0) throw new Error(`${what} failed (exit code ${code}): its time would mean nothing`)
  return ms
}

/**
 * Runs the action once as a step.
 * @param {Record<string, string>} inputs
 * @param {string[]} [nodeArgs]
 * @param {Record<string, string>} [extraEnv]
 */
async function runStep(inputs, nodeArgs = [], extraEnv = {}) {
  const { env, cleanup } = prepareStep({ inputs })
  try {
    return await timed(NODE, [...nodeArgs, ENTRY], { ...env, ...extraEnv })
  } finally {
    cleanup()
  }
}

/**
 * The environment of the curl scripts and the bare-Node programs: where the platform is
 * and the credentials, as a workflow's own script would have them.
 * @param {import('../test/support/fake-platform.mjs').FakePlatform} platform
 * @param {Record<string, string>} extra
 */
function recipeEnv(platform, extra) {
  return {
    PATH: process.env.PATH ?? '',
    PLATFORM_AUTH_URL: platform.authUrl,
    PLATFORM_API_URL: platform.baseUrl,
    CLIENT_ID: platform.clientId,
    CLIENT_SECRET: platform.clientSecret,
    ...extra,
  }
}

/** @param {string} tool */
const available = (tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0

/** @param {string} what */
function progress(what) {
  process.stderr.write(`  ${what}...\n`)
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

async function create() {
  progress('create, end to end')
  const platform = await startFakePlatform({ latencyMs: LATENCY_MS })
  try {
    const env = recipeEnv(platform, { TOKEN_NAME: 'bench-create' })
    const runs = QUICK ? 7 : 21
    const action = []
    const curl = []
    const floor = []
    const withCurl = available('curl') && available('jq')
    for (let i = 0; i < runs; i++) {
      const step = await runStep({
        ...platform.connectionInputs(),
        operation: 'create',
        name: 'bench-create',
      })
      if (step.code !== 0) throw new Error('the action failed to create a token')
      action.push(step.ms)
      floor.push(
        await succeeded(
          timed(NODE, [join(ROOT, 'bench/node-floor.mjs')], env),
          'bench/node-floor.mjs',
        ),
      )
      if (withCurl)
        curl.push(
          await succeeded(
            timed('bash', [join(ROOT, 'bench/curl-create.sh')], env),
            'bench/curl-create.sh',
          ),
        )
    }
    const curlMs = withCurl ? median(curl) : undefined
    return {
      actionMs: median(action),
      curlMs,
      nodeFloorMs: median(floor),
      ratio: curlMs === undefined ? undefined : curlMs / median(action),
      floorRatio: curlMs === undefined ? undefined : curlMs / median(floor),
    }
  } finally {
    await platform.close()
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

async function listMemory() {
  progress(`list of ${LIST_TOKENS} tokens`)
  const platform = await startFakePlatform()
  for (let i = 0; i < LIST_TOKENS; i++) {
    platform.seed({
      name: `mediator-${i}`,
      ageMs: i * 60_000,
      state: i % 3 === 0 ? 'revoked' : 'active',
    })
  }
  const report = join(mkdtempSync(join(tmpdir(), 'gateway-token-rss-')), 'rss')
  const rss = () => Number(readFileSync(report, 'utf8')) / 1024
  // Each run writes the report afresh; one that wrote none must not read the last run's.
  const fresh = () => {
    rmSync(report, { force: true })
  }
  const measure = ['--import', join(ROOT, 'bench/report-rss.mjs')]
  try {
    const peaks = []
    const times = []
    /** @type {number[]} */
    const floors = []
    /** @type {number[]} */
    const tlsFloors = []
    /** @type {{ into: number[], extra: Record<string, string> }[]} */
    const variants = [
      { into: floors, extra: {} },
      { into: tlsFloors, extra: { LOAD_TLS: '1' } },
    ]
    for (let i = 0; i < (QUICK ? 1 : 3); i++) {
      fresh()
      const inputs = { ...platform.connectionInputs(), operation: 'list' }
      const step = await runStep(inputs, measure, { RSS_REPORT: report })
      if (step.code !== 0) throw new Error('the action failed to list the tokens')
      peaks.push(rss())
      times.push(step.ms)
      for (const { into, extra } of variants) {
        const { env, cleanup } = prepareStep({})
        const floorEnv = { ...env, ...recipeEnv(platform, { RSS_REPORT: report, ...extra }) }
        fresh()
        const program = join(ROOT, 'bench/node-list-floor.mjs')
        await succeeded(timed(NODE, [...measure, program], floorEnv), 'bench/node-list-floor.mjs')
        cleanup()
        into.push(rss())
      }
    }
    fresh()
    const baseEnv = { PATH: process.env.PATH ?? '', RSS_REPORT: report }
    await succeeded(timed(NODE, [...measure, '-e', '0'], baseEnv), 'node -e 0')
    return {
      peakMiB: median(peaks),
      ms: median(times),
      floorMiB: median(floors),
      tlsFloorMiB: median(tlsFloors),
      nodeMiB: rss(),
    }
  } finally {
    await platform.close()
  }
}

process.stderr.write(
  `Benchmark: Node ${spawnSync(NODE, ['--version']).stdout.toString().trim()}, ${cpus().length} cores, ` +
    `${LATENCY_MS} ms latency, cleanup of ${CLEANUP_TOKENS}, list of ${LIST_TOKENS}${QUICK ? ', quick' : ''}\n`,
)
const start = await coldStart()
const size = bundleSize()
const made = await create()
const cleaned = await cleanup(start.actionMs)
const listed = await listMemory()

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
const widths = [0, 1, 2, 3].map((c) =>
  Math.max(
    ...rows.map((r) => String(r[c]).length),
    ['Figure', 'Measured', 'Target', ''][c]?.length ?? 0,
  ),
)
const line = (/** @type {string[]} */ cells) =>
  `| ${cells.map((cell, c) => cell.padEnd(widths[c] ?? 0)).join(' | ')} |`
console.log(line(['Figure', 'Measured', 'Target', '']))
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`)
for (const row of rows) console.log(line(row.map(String)))
console.log(JSON.stringify(result))
