// @ts-check
/**
 * `node bench/compare.mjs <bundle A> <bundle B> [...]`: two (or more) builds of the
 * action's main entry, measured in one run with their runs interleaved, so that the
 * machine's drift from one minute to the next weighs on both alike. Medians of: start
 * (no inputs, failing on the missing operation; 41 runs), create at 20 ms latency (31
 * runs), a cleanup of 300 tokens at concurrency 8 (9 runs) and the peak memory and time
 * of a list of 10,000 (11 runs). `npm run bench` compares the action with curl and bare
 * Node.js; this compares the action with itself, before and after a change:
 *
 *   git worktree add /tmp/before <commit> && (cd /tmp/before && npm ci && npm run package)
 *   node bench/compare.mjs /tmp/before/dist/index.js dist/index.js
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { startFakePlatform } from '../test/support/fake-platform.mjs'
import { node24 } from '../test/support/node24.mjs'
import { prepareStep, ROOT } from '../test/support/runner.mjs'

const DAY = 86_400_000
const NODE = node24()
const BUNDLES = process.argv.slice(2).map((path) => resolve(path))
if (BUNDLES.length < 2) {
  process.stderr.write('usage: node bench/compare.mjs <bundle A> <bundle B> [...]\n')
  process.exit(2)
}

/** @param {number[]} values */
const median = (values) => [...values].sort((a, b) => a - b)[values.length >> 1] ?? NaN

/**
 * Runs one bundle as a step with these inputs; returns its time, failing if it failed
 * (a comparison that failed early would look fast) unless `mayFail`.
 * @param {string} bundle
 * @param {Record<string, string>} inputs
 * @param {{ nodeArgs?: string[], env?: Record<string, string>, mayFail?: boolean }} [options]
 */
async function step(bundle, inputs, { nodeArgs = [], env = {}, mayFail = false } = {}) {
  const prepared = prepareStep({ inputs })
  try {
    const started = process.hrtime.bigint()
    const code = await new Promise((done, fail) => {
      const child = spawn(NODE, [...nodeArgs, bundle], {
        env: { ...prepared.env, ...env },
        cwd: prepared.dir,
        stdio: ['ignore', 'pipe', 'ignore'],
      })
      child.stdout.resume()
      child.on('error', fail)
      child.on('close', done)
    })
    if (code !== 0 && !mayFail) throw new Error(`${bundle} failed (exit code ${code})`)
    return Number(process.hrtime.bigint() - started) / 1e6
  } finally {
    prepared.cleanup()
  }
}

/**
 * Runs `measure` for each bundle in turn, `rounds` times, and prints the medians.
 * @param {string} what
 * @param {number} rounds
 * @param {(bundle: string) => Promise<Record<string, number>>} measure
 */
async function compare(what, rounds, measure) {
  /** @type {Map<string, Record<string, number[]>>} */
  const results = new Map(BUNDLES.map((bundle) => [bundle, {}]))
  for (let round = 0; round < rounds; round++) {
    for (const bundle of BUNDLES) {
      const figures = await measure(bundle)
      const into = results.get(bundle) ?? {}
      for (const [name, value] of Object.entries(figures)) (into[name] ??= []).push(value)
    }
  }
  console.log(`${what} (${rounds} runs each, medians)`)
  for (const [bundle, figures] of results) {
    const shown = Object.entries(figures).map(
      ([name, values]) => `${name} ${median(values).toFixed(1)}`,
    )
    console.log(`  ${bundle}: ${shown.join(', ')}`)
  }
}

await compare('start, no inputs', 41, async (bundle) => ({
  ms: await step(bundle, {}, { mayFail: true }),
}))

const platform = await startFakePlatform({ latencyMs: 20 })
try {
  let created = 0
  await compare('create, 20 ms latency', 31, async (bundle) => ({
    ms: await step(bundle, {
      ...platform.connectionInputs(),
      operation: 'create',
      name: `compare-${created++}`,
    }),
  }))

  await compare('cleanup of 300 tokens, concurrency 8', 9, async (bundle) => {
    platform.tokens.clear()
    for (let i = 0; i < 300; i++) platform.seed({ name: `ci-${i % 30}`, ageMs: (31 + i) * DAY })
    // keep: 0 for both builds: the newest token of each name is old too.
    const inputs = {
      ...platform.connectionInputs(),
      ...{ operation: 'cleanup', olderThan: '30d', keep: '0' },
    }
    return { ms: await step(bundle, { ...inputs, concurrency: '8' }) }
  })

  platform.latencyMs = 0
  platform.tokens.clear()
  for (let i = 0; i < 10_000; i++) {
    platform.seed({ name: `mediator-${i}`, ageMs: i * 60_000, state: i % 3 ? 'active' : 'revoked' })
  }
  const report = join(mkdtempSync(join(tmpdir(), 'gateway-token-compare-')), 'rss')
  await compare('list of 10,000 tokens', 11, async (bundle) => {
    rmSync(report, { force: true })
    const ms = await step(
      bundle,
      { ...platform.connectionInputs(), operation: 'list' },
      { nodeArgs: ['--import', join(ROOT, 'bench/report-rss.mjs')], env: { RSS_REPORT: report } },
    )
    return { 'peak MiB': Number(readFileSync(report, 'utf8')) / 1024, ms }
  })
} finally {
  await platform.close()
}
