// The cleanup's time over a fixed sample of the family, held to the times recorded for it: a change that makes any of them slower fails (simulated time).
import { expect, it } from '@jest/globals'
import fc from 'fast-check'
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { knowingClient, simulateCleanup } from '../fixtures/simulation.js'
import { late, platform, work } from '../fixtures/throttle-family.js'

const FILE = fileURLToPath(new URL('recorded-times.json', import.meta.url))
// The properties bound the pool's time by a factor of what a client that knows the limit
// needs; many of its rules move a cleanup's time by less than the slack that leaves. Each
// workload here is drawn as they draw theirs, from one fixed seed, with the default retries.
const sample = fc.sample(work(platform, fc.constant(3), fc.integer({ min: 20, max: 200 }), late), {
  seed: 31,
  numRuns: 120,
})

it('takes no longer on any of 120 simulated cleanups than the time recorded for it, and leaves no token', async () => {
  const pool: number[] = []
  for (const workload of sample) {
    const { ms, platform: at } = await simulateCleanup(workload)
    expect(at.activeCount()).toBe(0)
    pool.push(Math.round(ms))
  }
  // RECORD=1 writes them again, beside the knowing client's (docs/PERFORMANCE.md reads them):
  // for a change that makes the pool faster, or slower on purpose, said in its commit.
  if (process.env.RECORD === '1') {
    const knowing: number[] = []
    for (const workload of sample) knowing.push(Math.round((await knowingClient(workload)).ms))
    writeFileSync(FILE, `${JSON.stringify({ pool, knowing })}\n`)
  }
  const recorded = JSON.parse(readFileSync(FILE, 'utf8')) as { pool: number[] }
  expect(recorded.pool).toHaveLength(sample.length)
  const slower = pool.flatMap((ms, i) => {
    const was = recorded.pool[i] ?? 0
    return ms > was ? [{ workload: sample[i], was, now: ms }] : []
  })
  expect(slower).toEqual([])
})
