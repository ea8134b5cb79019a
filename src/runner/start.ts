// The Runner both seams implement (the GitHub runner, a terminal), and what both steps start with: the step's budget, a cancel that reports, the client.
import type { Connection } from '../inputs/read.js'
import { PlatformClient } from '../platform/client.js'
import type { Transport } from '../platform/http.js'
import { type Clock, Deadline } from '../shared/time.js'
import type { Secrets } from '../shared/secrets.js'
import type { Logger } from '../shared/text.js'

/** The signals a runner cancels a step with, in the order it sends them. */
export type CancelSignal = 'SIGINT' | 'SIGTERM'

/**
 * What the steps hand to, and read from, the runner they run on, its log lines (a Logger)
 * among them: the GitHub runner (github-runner.ts) or a terminal's (the command line). A
 * recording fake in tests.
 */
export interface Runner extends Logger {
  /** One input, trimmed; `''` when unset. */
  getInput: (name: string) => string
  /** The inputs the step was given, as the runner spells their variables (upper case). */
  inputNames: () => string[]
  /** Masks a value in the log from now on, exactly as given: a changed one would not be. */
  setSecret: (value: string) => void
  /** Ends the step as failed with this message. */
  setFailed: (message: string) => void
  setOutput: (name: string, value: string) => void
  exportVariable: (name: string, value: string) => void
  /** Saves a value for the post step, which reads it with getState. */
  saveState: (name: string, value: string) => void
  getState: (name: string) => string
  writeSummary: (markdown: string) => Promise<void>
  /** The directory for the step's temporary files. */
  tempDir: () => string
  /** Calls `listener` when the step is cancelled; returns what stops listening. */
  onCancel: (listener: (signal: CancelSignal) => void) => () => void
}

/**
 * The client, under the step's budget (totalTimeout, from now: reading the inputs took
 * no time worth counting), with a cancel that ends the step with a report of what it did.
 * `close`, once the step's work is done, stops listening for a cancel and closes the
 * connections.
 */
export function connect(
  runner: Runner,
  connection: Connection,
  secrets: Secrets,
  clock: Clock,
  { transport, bound }: { transport?: Transport; bound?: { ms: number; name: string } } = {},
) {
  // A tighter bound of the action's own applies when it is lower than totalTimeout.
  const total = connection.totalTimeoutMs
  const tighter = bound !== undefined && (total === 0 || bound.ms < total)
  const deadline = tighter ? new Deadline(clock, bound.ms, bound.name) : new Deadline(clock, total)
  const stopListening = stopOnCancel(runner, deadline, clock)
  const options = { ...connection, secrets, log: runner, deadline, clock }
  const client = new PlatformClient(transport ? { ...options, transport } : options)
  const close = () => {
    stopListening()
    client.close()
  }
  return { client, deadline, close }
}

/**
 * Calls `listener` at SIGINT and SIGTERM, the signals a runner (or a terminal's Ctrl-C) cancels
 * with: the GitHub runner sends SIGINT, then SIGTERM 7.5 s later, then kills the step 2.5 s
 * after that. Returns what stops listening. Listening replaces Node's default, which ends the
 * process at once and reports nothing.
 */
export function listenForCancel(listener: (signal: CancelSignal) => void): () => void {
  const onSigint = listener.bind(undefined, 'SIGINT')
  const onSigterm = listener.bind(undefined, 'SIGTERM')
  process.on('SIGINT', onSigint).on('SIGTERM', onSigterm)
  return () => {
    process.off('SIGINT', onSigint).off('SIGTERM', onSigterm)
  }
}

/**
 * How long requests in flight may go on after SIGINT before they are cut off. The
 * runner sends SIGTERM 7.5 s after SIGINT and kills the step 2.5 s later: this leaves
 * time to write the outputs and the summary after the cut, before either.
 */
export const CANCEL_GRACE_MS = 5_000

/**
 * Makes a cancel end the step cleanly, reporting what it did: at SIGINT, no request
 * starts any more (deadline.cancel) and those in flight have CANCEL_GRACE_MS to end,
 * so that what they did is known; at SIGTERM, or when the grace is over, they are cut
 * off. Returns what stops listening, once the step's work is done.
 */
export function stopOnCancel(runner: Runner, deadline: Deadline, clock: Clock): () => void {
  const finished = new AbortController()
  const stopListening = runner.onCancel((signal) => {
    if (signal === 'SIGINT' && !deadline.stopSignal.aborted) {
      runner.info(
        `Cancelled (SIGINT): no more requests start; those in flight have ${CANCEL_GRACE_MS / 1000} s to end, then what was done is reported.`,
      )
      deadline.cancel(signal)
      void clock.sleep(CANCEL_GRACE_MS, finished.signal).then(() => {
        if (!finished.signal.aborted) deadline.cut()
      })
      return
    }
    if (!deadline.cutSignal.aborted)
      runner.info(`Cancelled (${signal}): requests in flight are cut off; reporting what was done.`)
    deadline.cancel(signal)
    deadline.cut()
  })
  return () => {
    finished.abort()
    stopListening()
  }
}
