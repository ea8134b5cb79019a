// @ts-check
// The benchmark's figure 5: the peak memory (RSS) of the step that lists 10,000 tokens.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startFakePlatform } from '../test/support/fake-platform.mjs'
import { prepareStep, ROOT } from '../test/support/runner.mjs'
import { median, NODE, progress, recipeEnv, runStep, succeeded, timed } from './lib.mjs'

/**
 * The peak memory of a list of `listTokens` tokens, beside bare Node.js programs doing the
 * same work (node-list-floor.mjs), without and with https loaded.
 * @param {{ listTokens: number, quick: boolean }} workload
 */
export async function listMemory({ listTokens, quick }) {
  progress(`list of ${listTokens} tokens`)
  const platform = await startFakePlatform()
  for (let i = 0; i < listTokens; i++) {
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
    for (let i = 0; i < (quick ? 1 : 3); i++) {
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
