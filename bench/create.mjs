// @ts-check
// The benchmark's figure 3: a create, end to end, beside the curl + jq recipe and bare Node.js.
import { join } from 'node:path'
import { startFakePlatform } from '../test/support/fake-platform.mjs'
import { ROOT } from '../test/support/runner.mjs'
import { available, median, NODE, progress, recipeEnv, runStep, succeeded, timed } from './lib.mjs'

/**
 * Create, end to end: the action, the curl + jq recipe, and a bare Node.js program making
 * the same two requests (node-floor.mjs), interleaved.
 * @param {{ latencyMs: number, quick: boolean }} workload
 */
export async function create({ latencyMs, quick }) {
  progress('create, end to end')
  const platform = await startFakePlatform({ latencyMs: latencyMs })
  try {
    const env = recipeEnv(platform, { TOKEN_NAME: 'bench-create' })
    const runs = quick ? 7 : 21
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
