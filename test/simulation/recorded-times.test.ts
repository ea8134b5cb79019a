// The cleanup's time over a fixed sample of the family, held to the times recorded for it: a change that moves any of them fails until it records them again (simulated time).
import { expect, it } from '@jest/globals'
import fc from 'fast-check'
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import prettier from 'prettier'
import { knowingClient, simulateCleanup } from '../fixtures/simulation.js'
import { late, platform, work } from '../fixtures/throttle-family.js'

const FILE = fileURLToPath(new URL('recorded-times.json', import.meta.url))
// The properties bound the pool's time by a factor of what a client that knows the limit
// needs; many of its rules move a cleanup's time by less than the slack that leaves. Each
// workload here is drawn as theirs are, from one fixed seed, with the default retries and
// answers up to 0, 2 or 5 ms late (`late`).
const sample = fc.sample(work(platform, fc.constant(3), fc.integer({ min: 20, max: 200 }), late), {
  seed: 31,
  numRuns: 120,
})
// Which workloads the times are of: a change to the family, or to fast-check, draws others.
const drawn = createHash('sha256').update(JSON.stringify(sample)).digest('hex').slice(0, 16)

type Recorded = { sample: string; pool: number[]; knowing: number[] }

it('takes on each of 120 simulated cleanups the time recorded for it, and leaves no token', async () => {
  const pool: number[] = []
  for (const workload of sample) {
    const { ms, platform: at } = await simulateCleanup(workload)
    expect(at.activeCount()).toBe(0)
    pool.push(Math.round(ms))
  }
  // RECORD=1 writes them again, beside the knowing client's (docs/PERFORMANCE.md reads them),
  // for a change that moves them on purpose: its commit says how.
  if (process.env.RECORD === '1') {
    const knowing: number[] = []
    for (const workload of sample) knowing.push(Math.round((await knowingClient(workload)).ms))
    const text = JSON.stringify({ sample: drawn, pool, knowing } satisfies Recorded)
    // As the repository's Prettier writes it, which `npm run lint` checks.
    const options = { ...(await prettier.resolveConfig(FILE)), filepath: FILE }
    writeFileSync(FILE, await prettier.format(text, options))
  }
  const recorded = JSON.parse(readFileSync(FILE, 'utf8')) as Recorded
  // Other workloads than those recorded (the family, or fast-check, changed): RECORD=1.
  expect(recorded.sample).toBe(drawn)
  const moved = pool.flatMap((ms, i) => {
    const was = recorded.pool[i]
    return ms === was ? [] : [{ workload: sample[i], was, now: ms }]
  })
  expect(moved).toEqual([])
})
