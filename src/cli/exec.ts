// gateway-token exec: the action's main step, COMMAND run with the token (signals passed on), then the post step, in one process.
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { constants } from 'node:os'
import { run as mainStep } from '../main.js'
import { run as postStep } from '../post/step.js'
import type { Invocation } from './args.js'
import type { Runner } from '../runner/start.js'
import { terminal, type Surroundings } from './terminal.js'

/**
 * Creates the token (in `--env`, default GATEWAY_TOKEN, or a 0600 file whose path is in
 * `--token-file-env`), runs COMMAND with it, then revokes it as `--revoke-on-exit` says,
 * through the post step: the same record, the same rules for a create whose answer was lost.
 * Returns COMMAND's exit code, or 128 + the number of the signal that ended it; 1 when the
 * create failed (COMMAND never ran), 2 for a bad input.
 */
export async function exec(invocation: Invocation, { env, clock, streams }: Surroundings) {
  const { inputs, own, argv } = invocation
  const file = own['token-file-env'] !== undefined
  const variable = own['token-file-env'] ?? own.env ?? 'GATEWAY_TOKEN'
  // Not envName: the variable is COMMAND's, set here, not a later step's, and nothing masks it.
  const steps: Record<string, string> = { ...inputs, ...(file ? { writeTokenFile: 'true' } : {}) }
  const { runner, outputs, exitCode, cleanUp } = terminal(steps, { env, clock, streams })
  // From the first request to the last, a signal never ends this process as Node's default
  // would, the token left active and COMMAND running on: the steps cancel on it, COMMAND gets
  // it, and between them, it is held.
  const command = passingSignals()
  process.on('SIGINT', command.pass).on('SIGTERM', command.pass)
  try {
    const step = await mainStep(runner, clock)
    if (exitCode(step) === 2) return 2
    // The command needs the gateway token, not the API client that made it.
    const commandEnv = { ...env, [variable]: outputs.get(file ? 'tokenFile' : 'tokenValue') }
    delete commandEnv.PLATFORM_CLIENT_SECRET
    const where = `${file ? "the token file's path" : 'the token value'} in ${variable}`
    const code = step.failed ? 1 : await command.run(argv, commandEnv, where, runner)
    steps.jobStatus = code === 0 ? 'success' : 'failure'
    // never: kept, in the flag's words, but when COMMAND never started (args.ts: the post step
    // then revokes it as `failure` does).
    const kept = own['revoke-on-exit'] === 'never' && command.started()
    const line = `${argv[0]} ended (exit code ${code}): the token stays active (--revoke-on-exit never).`
    await postStep(runner, clock, undefined, kept ? line : undefined)
    return code
  } finally {
    process.off('SIGINT', command.pass).off('SIGTERM', command.pass)
    cleanUp()
  }
}

/**
 * COMMAND, and the SIGINT and SIGTERM passed on to it once it runs. One that came before it
 * started (while the token was made) means it never starts: 128 + that signal's number.
 */
function passingSignals() {
  let child: ChildProcess | undefined
  let early: NodeJS.Signals | undefined
  return {
    /** Whether COMMAND started: not when it was not found, could not be spawned, or came late. */
    started: () => child?.pid !== undefined,
    pass: (signal: NodeJS.Signals) => {
      if (child === undefined) early ??= signal
      else child.kill(signal)
    },
    /** Runs COMMAND with the token `where` it says: its exit code, or 128 + the signal's number. */
    async run(argv: readonly string[], env: NodeJS.ProcessEnv, where: string, log: Runner) {
      const [command = '', ...args] = argv
      // Through the terminal's log: scrubbed, one line, no runner command.
      if (early !== undefined) {
        log.setFailed(`${command} was not started: ${early} came first.`)
        return 128 + constants.signals[early]
      }
      try {
        // Some failures are thrown, not emitted: an environment too large for the system
        // (E2BIG, a token value over 128 KiB on Linux). A pid is there once COMMAND started.
        child = spawn(command, args, { env, stdio: 'inherit' })
        if (child.pid !== undefined) log.info(`Running ${command} with ${where}.`)
        // An 'error' (not found, not spawned) rejects it.
        const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null]
        return signal ? 128 + constants.signals[signal] : (code ?? 1)
      } catch (error) {
        const { code, message } = error as NodeJS.ErrnoException
        const tooLarge =
          code === 'E2BIG'
            ? ' The token is too large for a variable: give --token-file-env VAR.'
            : ''
        log.setFailed(`could not run ${command}: ${message}.${tooLarge}`)
        return 127
      }
    },
  }
}
