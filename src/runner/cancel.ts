// A cancelled step: SIGINT stops new requests and gives those in flight a grace period; SIGTERM cuts them off.
import type { Clock } from '../shared/time.js'
import type { Deadline } from '../shared/time.js'
import type { Runner } from './runner.js'

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
  const done = new AbortController()
  const stopListening = runner.onCancel((signal) => {
    if (signal === 'SIGINT' && !deadline.stopSignal.aborted) {
      runner.info(
        `Cancelled (SIGINT): no more requests start; those in flight have ${CANCEL_GRACE_MS / 1000} s to end, then what was done is reported.`,
      )
      deadline.cancel(signal)
      void clock.sleep(CANCEL_GRACE_MS, done.signal).then(() => {
        if (!done.signal.aborted) deadline.cut()
      })
      return
    }
    if (!deadline.cutSignal.aborted) {
      runner.info(`Cancelled (${signal}): requests in flight are cut off; reporting what was done.`)
    }
    deadline.cancel(signal)
    deadline.cut()
  })
  return () => {
    done.abort()
    stopListening()
  }
}
