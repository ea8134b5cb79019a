// @ts-check
// The benchmark's figure 3: a create, end to end, beside the curl + jq recipe and bare Node.js; and gateway-token's create and exec beside the action's.
import { join } from 'node:path'
import { startFakePlatform } from '../test/support/fake-platform.mjs'
import { ROOT } from '../test/support/runner.mjs'
import { available, median, NODE, progress, recipeEnv, runStep, succeeded, timed } from './lib.mjs'

const CLI = join(ROOT, 'dist/cli/index.js')

/**
 * Create, end to end: the action, the curl + jq recipe, and a bare Node.js program making
 * the same two requests (node-floor.mjs), interleaved; and the command line: `create
 * --print-value`, `exec --revoke-on-exit never -- true` against that create followed by
 * `true` (what exec adds), and exec with its revoke.
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
    const cli = []
    const exec = []
    const createThenTrue = []
    const execRevoking = []
    const cliEnv = {
      PATH: env.PATH,
      PLATFORM_CLIENT_ID: platform.clientId,
      PLATFORM_CLIENT_SECRET: platform.clientSecret,
      PLATFORM_API_URL: platform.baseUrl,
      PLATFORM_AUTH_URL: platform.authUrl,
    }
    const gatewayToken = (/** @type {string[]} */ args) =>
      succeeded(timed(NODE, [CLI, ...args], cliEnv), `gateway-token ${args[0] ?? ''}`)
    const created = ['create', '--name', 'bench-create', '--print-value']
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
      cli.push(await gatewayToken(created))
      createThenTrue.push(
        (await gatewayToken(created)) + (await succeeded(timed('true', [], cliEnv), 'true')),
      )
      exec.push(
        await gatewayToken([
          'exec',
          '--name',
          'bench-exec',
          '--revoke-on-exit',
          'never',
          '--',
          'true',
        ]),
      )
      execRevoking.push(await gatewayToken(['exec', '--name', 'bench-exec', '--', 'true']))
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
      cliMs: median(cli),
      cliVsAction: median(cli) / median(action),
      execMs: median(exec),
      createThenTrueMs: median(createThenTrue),
      execAddsMs: median(exec) - median(createThenTrue),
      execRevokingMs: median(execRevoking),
    }
  } finally {
    await platform.close()
  }
}
