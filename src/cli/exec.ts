// gateway-token exec: the action's main step, COMMAND run with the token (signals passed on), then the post step, in one process.
import { spawn } from 'node:child_process'
import { constants } from 'node:os'
import { run as mainStep } from '../main.js'
import { run as postStep } from '../post/step.js'
import type { Invocation } from './args.js'
import { terminal, type Streams, type Surroundings } from './terminal.js'

/**
 * Creates the token (in `--env`, default GATEWAY_TOKEN, or a 0600 file whose path is in
 * `--token-file-env`), runs COMMAND with it, then revokes it as `--revoke-on-exit` says,
 * through the post step: the same record, the same rules for a create whose answer was lost.
 * Returns COMMAND's exit code, or 128 + the number of the signal that ended it; 1 when the
 * create failed (COMMAND never ran), 2 for a bad input.
 */
export async function exec(
  { inputs, own, argv }: Invocation,
  { env, clock, streams }: Surroundings,
) {
  const fileVariable = own['token-file-env']
  const destination =
    fileVariable === undefined
      ? { envName: own.env ?? 'GATEWAY_TOKEN' }
      : { writeTokenFile: 'true' }
  const steps: Record<string, string> = { ...inputs, ...destination, summary: 'false' }
  const { runner, outputs, exitCode, cleanUp } = terminal(steps, streams)
  let value = ''
  try {
    const { error } = await mainStep(runner, clock, ({ result }) => {
      if (result.operation === 'create') value = result.token.tokenValue ?? ''
    })
    if (exitCode(error) === 2) return 2
    // The command needs the gateway token, not the API client that made it.
    const commandEnv = {
      ...env,
      [fileVariable ?? own.env ?? 'GATEWAY_TOKEN']: fileVariable ? outputs.get('tokenFile') : value,
    }
    delete commandEnv.PLATFORM_CLIENT_SECRET
    const code = error === undefined ? await runCommand(argv, commandEnv, streams) : 1
    steps.jobStatus = code === 0 ? 'success' : 'failure'
    await postStep(runner, clock)
    return error === undefined ? code : exitCode(error)
  } finally {
    cleanUp()
  }
}

/** Runs COMMAND, passing SIGINT and SIGTERM on to it; its exit code, or 128 + its signal's. */
function runCommand(
  [command = '', ...args]: readonly string[],
  env: NodeJS.ProcessEnv,
  { err }: Streams,
) {
  return new Promise<number>((resolve) => {
    const child = spawn(command, args, { env, stdio: 'inherit' })
    const pass = (signal: NodeJS.Signals) => child.kill(signal)
    process.on('SIGINT', pass).on('SIGTERM', pass)
    const done = (code: number) => {
      process.off('SIGINT', pass).off('SIGTERM', pass)
      resolve(code)
    }
    child.on('error', (error) => {
      err(`error: could not run ${command}: ${error.message}\n`)
      done(127)
    })
    child.on('exit', (code, signal) => {
      done(signal ? 128 + constants.signals[signal] : (code ?? 1))
    })
  })
}
