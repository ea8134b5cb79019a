// Time: the injectable clock (time, waits, jitter) and the step's budget (totalTimeout), ended early by a cancel.
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
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      if (signal?.aborted === true) {
        resolve()
        return
      }
      const done = () => {
        clearTimeout(timer)
        signal?.removeEventListener('abort', done)
        resolve()
      }
      const timer = setTimeout(done, ms)
      signal?.addEventListener('abort', done, { once: true })
    }),
  jitter: () => Math.random(),
}

/**
 * What ended the budget: totalTimeout running out (or `limit`, a tighter bound of the
 * action's own, when it is lower), or the runner cancelling the step.
 */
export type StopCause =
  { by: 'totalTimeout'; totalMs: number; limit?: string } | { by: 'cancel'; signal: string }

export class Deadline {
  private readonly endsAt: number
  private cancelledBy: string | undefined
  private readonly stopping = new AbortController()
  private readonly cutting = new AbortController()

  /**
   * @param totalMs the whole budget; 0 means no limit.
   * @param limit what sets it, for messages, when it is not the totalTimeout input.
   */
  constructor(
    private readonly clock: Clock,
    readonly totalMs: number,
    private readonly limit?: string,
  ) {
    this.endsAt = totalMs > 0 ? clock.now() + totalMs : Infinity
  }

  /** Milliseconds left; Infinity without a limit; none once the step was cancelled. */
  remaining(): number {
    if (this.cancelledBy !== undefined) return 0
    return Math.max(0, this.endsAt - this.clock.now())
  }

  expired(): boolean {
    return this.remaining() === 0
  }

  /** Aborts when the step is cancelled: nothing new starts, and waits end at once. */
  get stopSignal(): AbortSignal {
    return this.stopping.signal
  }

  /** Aborts when the requests still in flight are to be cut off. */
  get cutSignal(): AbortSignal {
    return this.cutting.signal
  }

  /**
   * The runner cancels the step (`signal`): no request starts from now on. Those in
   * flight go on until cut(), so that what they did is known.
   */
  cancel(signal: string): void {
    if (this.cancelledBy !== undefined) return
    this.cancelledBy = signal
    this.stopping.abort()
  }

  /** Cuts off the requests in flight: the step must report and end now. */
  cut(): void {
    this.cutting.abort()
  }

  /** What ended the budget (or will): a cancel, else totalTimeout. */
  cause(): StopCause {
    if (this.cancelledBy !== undefined) return { by: 'cancel', signal: this.cancelledBy }
    const cause = { by: 'totalTimeout' as const, totalMs: this.totalMs }
    return this.limit === undefined ? cause : { ...cause, limit: this.limit }
  }

  /** `totalTimeout (900 s)`, for messages. */
  describe(): string {
    return budget(this.totalMs, this.limit)
  }
}

/** `totalTimeout (900 s)`: the one place that words the budget. */
function budget(totalMs: number, limit = 'totalTimeout'): string {
  return `${limit} (${Math.round(totalMs / 1000)} s)`
}

/**
 * Why nothing more was sent, as the start of a sentence: `totalTimeout (900 s) ran out`,
 * or `The step was cancelled (SIGINT)`.
 */
export function stopped(cause: StopCause): string {
  return cause.by === 'cancel'
    ? `The step was cancelled (${cause.signal})`
    : `${budget(cause.totalMs, cause.limit)} ran out`
}
