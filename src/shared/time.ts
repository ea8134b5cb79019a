// Time: the injectable clock (time, waits, jitter) and the step's budget (totalTimeout), ended early by a cancel.
import { setTimeout as wait } from 'node:timers/promises'

/** Time, as the action sees it: injectable so that retry and age tests run instantly. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number
  /**
   * Waits `ms`, or until `signal` aborts, whichever comes first; never rejects. A wait cut
   * short leaves no timer behind, so that a step can end as soon as its work is done.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>
  /** A random fraction in [0, 1) that spreads retries apart (backoff jitter). */
  jitter(): number
}

export const systemClock: Clock = {
  now: () => Date.now(),
  // A wait cut short rejects, its timer cleared: that is the end of the wait.
  sleep: (ms, signal) => wait(ms, undefined, { signal }).catch(() => undefined),
  jitter: () => Math.random(),
}

/**
 * Whose clock measures ages: the platform's, which dated the tokens (the Date header of the
 * list answer; `skewMs` is how far the runner's clock is behind it, negative: ahead), or
 * without a Date header the runner's, all there is.
 */
export type AgeClock = { by: 'platform'; skewMs: number } | { by: 'runner' }

/**
 * `now` on the clock a list's ages are measured on, read just after the list answered: a
 * self-hosted runner's clock drifts, and days off would revoke tokens hours old.
 */
export function agesNow(clock: Clock, platformTime: (runnerTime: number) => number | undefined) {
  const runnerNow = clock.now()
  const platformNow = platformTime(runnerNow)
  const ages: AgeClock =
    platformNow === undefined
      ? { by: 'runner' }
      : { by: 'platform', skewMs: platformNow - runnerNow }
  return { now: platformNow ?? runnerNow, ages }
}

/**
 * What ended the budget: totalTimeout running out (or `bound`, the name of a tighter bound
 * of the action's own, when it is lower), or the runner cancelling the step.
 */
export type StopCause =
  | { by: 'totalTimeout'; totalMs: number; bound?: string | undefined }
  | { by: 'cancel'; signal: string }

export class Deadline {
  private endsAt: number
  private readonly stopping = new AbortController()
  private readonly cutting = new AbortController()
  /**
   * Aborts when the step is cancelled, its reason the runner's signal (the first one): nothing
   * new starts, and waits end at once.
   */
  readonly stopSignal = this.stopping.signal
  /** Aborts when the requests still in flight are to be cut off. */
  readonly cutSignal = this.cutting.signal

  /**
   * @param totalMs the whole budget; 0 means none.
   * @param bound what sets it, for messages, when it is not the totalTimeout input.
   */
  constructor(
    private readonly clock: Clock,
    readonly totalMs: number,
    private readonly bound?: string,
  ) {
    this.endsAt = totalMs > 0 ? clock.now() + totalMs : Infinity
  }

  /** Milliseconds left; Infinity without a budget; none once the step was cancelled. */
  remaining(): number {
    return this.stopSignal.aborted ? 0 : Math.max(0, this.endsAt - this.clock.now())
  }

  expired(): boolean {
    return this.remaining() === 0
  }

  /**
   * The runner cancels the step (`signal`): no request starts from now on. Those in
   * flight go on until cut(), so that what they did is known.
   */
  cancel(signal: string): void {
    this.stopping.abort(signal)
  }

  /**
   * `ms` more once totalTimeout ran out (not after a cancel): for the one list that tells
   * what became of the requests still in flight when it did.
   */
  grace(ms: number): void {
    if (!this.stopSignal.aborted) this.endsAt += ms
  }

  /** Cuts off the requests in flight: the step must report and end now. */
  cut(): void {
    this.cutting.abort()
  }

  /** What ended the budget (or will): a cancel, else totalTimeout. */
  cause(): StopCause {
    if (this.stopSignal.aborted) return { by: 'cancel', signal: String(this.stopSignal.reason) }
    return { by: 'totalTimeout', totalMs: this.totalMs, bound: this.bound }
  }

  /** `totalTimeout (900 s)`, for messages. */
  describe(): string {
    return budget(this.totalMs, this.bound)
  }
}

/** `totalTimeout (900 s)`: the one place that words the budget. */
const budget = (totalMs: number, bound = 'totalTimeout'): string =>
  `${bound} (${Math.round(totalMs / 1000)} s)`

/**
 * Why nothing more was sent, as the start of a sentence: `totalTimeout (900 s) ran out`,
 * or `The step was cancelled (SIGINT)`.
 */
export function stopped(cause: StopCause): string {
  if (cause.by === 'cancel') return `The step was cancelled (${cause.signal})`
  return `${budget(cause.totalMs, cause.bound)} ran out`
}
