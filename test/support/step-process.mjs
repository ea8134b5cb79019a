// @ts-check
/**
 * A step's process as the runner starts and stops it (actions/runner): `node <script>` with
 * stdin closed; on a cancel, or when the step's `timeout-minutes` run out, SIGINT to the
 * process, SIGTERM 7.5 s later, and a kill 2.5 s after that
 * (ProcessInvoker.CancelAndKillProcessTree). `timeout-minutes` is whole minutes, cast as the
 * runner casts it ((Int32) in StepsRunner: 0.5 is no timeout), and it bounds the post step
 * too; a step stopped by it fails ("The action '...' has timed out after N minutes.").
 * Once the process exits, what it printed is read for 5 s at most (NodeScriptActionHandler).
 */
import { spawn } from 'node:child_process'

/** How long the runner waits after SIGINT before SIGTERM, and after SIGTERM before it kills. */
const SIGINT_TIMEOUT_MS = 7_500
const SIGTERM_TIMEOUT_MS = 2_500

/**
 * @typedef {object} ProcessOptions
 * @property {{ when: () => boolean, first?: 'SIGINT' | 'SIGTERM' }} [cancel] cancel the step as
 *   the runner does, once `when()` holds (looked at every 10 ms): SIGINT first, or SIGTERM
 * @property {number} [timeoutMinutes] the step's `timeout-minutes`
 * @property {number} [minuteMs] how long a minute of `timeoutMinutes` lasts: 60,000, or
 *   less in a test that cannot wait minutes
 * @property {number} [hangMs] a step that outlives this is a hung test: killed, and an error
 */

/**
 * @typedef {object} Ended
 * @property {number | null} exitCode
 * @property {string} stdout
 * @property {string} stderr
 * @property {{ signal: string, atMs: number }[]} signals the signals sent, with when
 * @property {number} endedAtMs when it ended, after it started
 * @property {'cancel' | 'timeout' | undefined} stoppedBy
 */

/**
 * Runs a step's program (`node <script>`, or `bash ... <script>`) and stops it as the
 * runner would.
 * @param {[string, ...string[]]} command the program and its arguments
 * @param {Record<string, string>} env
 * @param {string} cwd
 * @param {ProcessOptions} options
 * @returns {Promise<Ended>}
 */
export function runStepProcess([program, ...args], env, cwd, options) {
  const { cancel, timeoutMinutes = 0, minuteMs = 60_000, hangMs = 20_000 } = options
  return new Promise((resolvePromise, reject) => {
    const started = Date.now()
    const child = spawn(program, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    /** @type {{ signal: string, atMs: number }[]} */
    const signals = []
    /** @type {NodeJS.Timeout[]} */
    const timers = []
    /** @type {Ended['stoppedBy']} */
    let stoppedBy
    /** @param {NodeJS.Signals} signal */
    const send = (signal) => {
      signals.push({ signal, atMs: Date.now() - started })
      child.kill(signal)
    }
    /** @param {'SIGINT' | 'SIGTERM'} first @param {'cancel' | 'timeout'} by */
    const stop = (first, by) => {
      if (stoppedBy !== undefined) return
      stoppedBy = by
      if (first === 'SIGTERM') {
        send('SIGTERM')
        timers.push(setTimeout(() => send('SIGKILL'), SIGTERM_TIMEOUT_MS))
        return
      }
      send('SIGINT')
      timers.push(
        setTimeout(() => {
          send('SIGTERM')
          timers.push(setTimeout(() => send('SIGKILL'), SIGTERM_TIMEOUT_MS))
        }, SIGINT_TIMEOUT_MS),
      )
    }
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk))
    timers.push(setTimeout(() => child.kill('SIGKILL'), hangMs))
    const minutes = Math.trunc(timeoutMinutes)
    if (minutes > 0) timers.push(setTimeout(() => stop('SIGINT', 'timeout'), minutes * minuteMs))
    if (cancel !== undefined) {
      const watch = setInterval(() => {
        if (!cancel.when()) return
        clearInterval(watch)
        stop(cancel.first ?? 'SIGINT', 'cancel')
      }, 10)
      timers.push(watch)
    }
    child.on('error', reject)
    // The runner waits at most 5 s after the process ends for what it printed (a child of
    // it may hold the pipes open): then it reads no more.
    child.on('exit', () => {
      const drained = setTimeout(() => {
        child.stdout.destroy()
        child.stderr.destroy()
      }, 5_000)
      drained.unref()
      timers.push(drained)
    })
    child.on('close', (code, signal) => {
      for (const timer of timers) clearTimeout(timer)
      const endedAtMs = Date.now() - started
      if (signal === 'SIGKILL' && !signals.some((sent) => sent.signal === 'SIGKILL'))
        reject(new Error(`the step did not end within ${hangMs} ms\n${stdout}`))
      else resolvePromise({ exitCode: code, stdout, stderr, signals, endedAtMs, stoppedBy })
    })
  })
}
