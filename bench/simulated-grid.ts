// The grid `npm run bench -- --grid` runs (bench/grid.mjs): 432 cleanups in simulated time, each beside the client that knows the limit, to compare the pool's rules.
import { expect, it } from '@jest/globals'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { knowingClient, simulateCleanup, type Workload } from '../test/fixtures/simulation.js'
import type { ThrottleSpec } from '../test/support/fake-platform/throttle.mjs'

type Row = { name: string; ms: number; knowing: number; ratio: number; active: number }

/**
 * Token buckets (a second's rate, a burst) and limits in flight; 429s at once or after the
 * latency; no Retry-After, 0 or whole seconds; another job taking half the limit from 20 ms
 * for 0.8 s, or 60 % from 80 ms for 1 s, or nothing; concurrency 8 and 32; 10 and 40 ms.
 * 200 tokens, 1 ms to send a request, the default retries, one seed: every run the same.
 */
function* grid(): Generator<{ name: string; work: Workload }> {
  const limits = [
    { perSecond: 20, burst: 5 },
    { perSecond: 50, burst: 10 },
    { perSecond: 100, burst: 20 },
    { perSecond: 100, burst: 1 },
    { inFlight: 6 },
    { inFlight: 12 },
  ]
  const shares = [
    undefined,
    { fromMs: 20, untilMs: 820, share: 0.5 },
    { fromMs: 80, untilMs: 1080, share: 0.4 },
  ]
  for (const limit of limits)
    for (const rejects of ['at once', 'after latency'] as const)
      for (const retryAfter of ['none', '0', 'seconds'] as const)
        for (const shared of shares)
          for (const concurrency of [8, 32])
            for (const latencyMs of [10, 40]) {
              const spec: ThrottleSpec = { limit, rejects, retryAfter }
              if (shared !== undefined) spec.shared = [shared]
              const name = [
                'inFlight' in limit
                  ? `${limit.inFlight} in flight`
                  : `${limit.perSecond}/s burst ${limit.burst}`,
                rejects,
                `Retry-After ${retryAfter}`,
                shared
                  ? `${Math.round(100 - 100 * shared.share)} % taken from ${shared.fromMs} ms`
                  : 'none taken',
                `concurrency ${concurrency}`,
                `${latencyMs} ms`,
              ].join(', ')
              const work = {
                spec,
                tokens: 200,
                concurrency,
                latencyMs,
                sendMs: 1,
                retries: 3,
                seed: 3,
              }
              yield { name, work }
            }
}

const geometricMean = (ratios: number[]) =>
  Math.exp(ratios.reduce((sum, r) => sum + Math.log(r), 0) / ratios.length)

it('measures the pool over the grid', async () => {
  const rows: Row[] = []
  for (const { name, work } of grid()) {
    const sim = await simulateCleanup(work)
    const knowing = (await knowingClient(work)).ms
    const active = sim.platform.activeCount()
    rows.push({ name, ms: sim.ms, knowing, ratio: sim.ms / knowing, active })
  }
  const out = process.env.GRID_OUT ?? 'reports/grid.json'
  mkdirSync(dirname(out), { recursive: true })
  writeFileSync(out, JSON.stringify(rows, null, 1))
  const ratios = rows.map(({ ratio }) => ratio)
  const worst = rows.reduce((a, b) => (b.ratio > a.ratio ? b : a))
  const lines = [
    `${rows.length} cleanups: the pool takes a geometric mean of ${geometricMean(ratios).toFixed(3)} times the knowing client's time`,
    `over 1.5 times: ${ratios.filter((r) => r > 1.5).length}; over 2 times: ${ratios.filter((r) => r > 2).length}`,
    `the worst: ${worst.ratio.toFixed(2)} times (${Math.round(worst.ms)} ms against ${Math.round(worst.knowing)} ms), ${worst.name}`,
    `tokens left active: ${rows.reduce((sum, { active }) => sum + active, 0)}`,
    `each cleanup's figures: ${out}`,
  ]
  // Against an earlier run (GRID_BEFORE, its file): how many moved by over 0.05 times.
  const beforeFile = process.env.GRID_BEFORE
  if (beforeFile !== undefined) {
    const before = new Map(
      (JSON.parse(readFileSync(beforeFile, 'utf8')) as Row[]).map((row) => [row.name, row.ratio]),
    )
    const moved = rows.map((row) => row.ratio - (before.get(row.name) ?? row.ratio))
    const was = geometricMean(rows.map((row) => before.get(row.name) ?? row.ratio))
    lines.push(
      `against ${beforeFile} (${was.toFixed(3)}): ${moved.filter((d) => d < -0.05).length} better by over 0.05 times, ${moved.filter((d) => d > 0.05).length} worse`,
    )
  }
  process.stdout.write(`\n${lines.join('\n')}\n`)
  // A rule that leaves a token active is worse than any slow cleanup: the run says so.
  expect(rows.filter(({ active }) => active > 0).map(({ name }) => name)).toEqual([])
}, 300_000)
