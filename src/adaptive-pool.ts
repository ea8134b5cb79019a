// A pool that runs tasks a few at a time and slows down while the platform rate-limits.
import type { Clock } from './clock.js'
import type { Logger } from './logger.js'

/**
 * Runs tasks at most `limit` at a time, and adapts that limit to a platform that
 * rate-limits: a throttle halves it and pauses new starts for the wait the platform
 * asked for; each run of `limit` successes raises it by one, back up to the maximum.
 */
export class AdaptivePool {
  private limit: number
  private pausedUntil = 0
  private successes = 0

  constructor(
    private readonly max: number,
    private readonly clock: Clock,
    private readonly log: Logger,
  ) {
    this.limit = max
  }

  /** How many tasks may be in flight now. */
  get inFlightLimit(): number {
    return this.limit
  }

  /** The platform answered 429 and asked to wait `delayMs`. */
  throttled(delayMs: number): void {
    const now = this.clock.now()
    // Throttles that arrive during a pause come from requests sent before it: one event.
    if (now >= this.pausedUntil && this.limit > 1) {
      const before = this.limit
      this.limit = Math.max(1, Math.floor(this.limit / 2))
      this.log.info(
        `The platform is rate-limiting: ${this.limit} requests in flight instead of ${before}.`,
      )
    }
    this.pausedUntil = Math.max(this.pausedUntil, now + delayMs)
    this.successes = 0
  }

  /** A task went through. */
  succeeded(): void {
    if (this.limit >= this.max) return
    if (++this.successes >= this.limit) {
      this.limit++
      this.successes = 0
    }
  }

  /** Runs `work` on every item and returns the results in item order. */
  async run<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
    const queue = items.map((item, index) => ({ item, index }))
    const results = new Array<R>(items.length)
    let inFlight = 0
    // A task that throws is a bug: stop taking new items, so that nothing more is done unreported.
    let failed = false
    // Resolved, and replaced, each time a task ends: the moment to look again.
    let wake = (): void => undefined
    let taskEnded = new Promise<void>((resolve) => (wake = resolve))
    const endTask = (): void => {
      const wakeAll = wake
      taskEnded = new Promise<void>((resolve) => (wake = resolve))
      wakeAll()
    }

    // One worker per possible task in flight; each starts a task only while fewer than
    // the current limit are in flight, so a halved limit holds at once, whichever
    // workers happen to be busy.
    const worker = async (): Promise<void> => {
      for (;;) {
        if (failed || (queue.length === 0 && inFlight === 0)) return
        const pause = this.pausedUntil - this.clock.now()
        if (pause > 0) {
          await this.clock.sleep(pause)
          continue
        }
        // At the limit, or nothing queued: wait for a task to end (and the limit to change).
        if (inFlight >= this.limit || queue.length === 0) {
          await taskEnded
          continue
        }
        const next = queue.shift()
        if (next === undefined) continue
        inFlight++
        try {
          results[next.index] = await work(next.item)
        } catch (error) {
          failed = true
          throw error
        } finally {
          inFlight--
          endTask()
        }
      }
    }

    await Promise.all(Array.from({ length: this.max }, () => worker()))
    return results
  }
}
