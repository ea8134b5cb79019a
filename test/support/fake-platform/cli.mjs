// The command line: a platform started by hand on the given ports, its addresses printed.
// @ts-check
import { startFakePlatform } from './platform.mjs'

/**
 * Starts a platform on the ports of `[authPort, apiPort]` (free ones when absent), with
 * the client secret of FAKE_PLATFORM_CLIENT_SECRET, prints its connection inputs as JSON
 * and stops it on SIGINT or SIGTERM.
 * @param {string[]} args
 */
export async function serveFromCommandLine(args) {
  const [authPort, apiPort] = args.map(Number)
  const platform = await startFakePlatform({
    authPort: authPort ?? 0,
    apiPort: apiPort ?? 0,
    clientSecret: process.env.FAKE_PLATFORM_CLIENT_SECRET ?? 'local-fake-secret',
  })
  console.log(JSON.stringify(platform.connectionInputs()))
  const stop = () => void platform.close().then(() => process.exit(0))
  process.on('SIGINT', stop).on('SIGTERM', stop)
}
