// How fast a cleanup sends revokes once the platform limits their rate: just under what it lets in.

/**
 * A client-side token bucket of one: sends at most `perSecond` a second, evenly spaced.
 * It is off until the platform shows a limit on the rate (a 429 that the in-flight limit
 * does not explain); then it paces at a little under the rate the platform let requests
 * in over the last second, and raises the pace slowly while nothing is turned away, so
 * that it stays just under the platform's rate instead of probing above it again and again.
 */
export class RatePacer {
  /** Requests a second; undefined: no limit on the rate seen, no pacing. */
  private perSecond: number | undefined
  private nextAt = -Infinity
  private firstSentAt: number | undefined
  /** When requests were let in, for the last WINDOW_MS. */
  private admittedAt: number[] = []
  private lastThrottleAt = -Infinity
  private lastRaisedAt = -Infinity

  /** Requests a second it paces at, or undefined when it does not pace. */
  get rate(): number | undefined {
    return this.perSecond
  }

  /** The earliest a request may be sent, at `now` or later. */
  nextSendAt(now: number): number {
    return this.perSecond === undefined ? now : Math.max(now, this.nextAt)
  }

  /** A request was sent at `now`. */
  sent(now: number): void {
    this.firstSentAt ??= now
    if (this.perSecond !== undefined) {
      this.nextAt = Math.max(now, this.nextAt) + 1000 / this.perSecond
    }
  }

  /** A request was let in at `now` (any answer but 429). */
  admitted(now: number): void {
    this.admittedAt.push(now)
    this.forget(now)
    this.raise(now)
  }

  /**
   * The platform turned a request away on its rate: pace at a little under the rate it let
   * requests in over the last second (a shorter time at the start), and never above the
   * pace that was just too fast.
   */
  throttled(now: number): void {
    this.forget(now)
    const windowMs = Math.max(MIN_WINDOW_MS, Math.min(WINDOW_MS, now - (this.firstSentAt ?? now)))
    const accepted = (this.admittedAt.length * 1000) / windowMs
    const under = Math.max(MIN_PER_SECOND, accepted * UNDER)
    this.perSecond =
      this.perSecond === undefined ? under : Math.min(under, this.perSecond * DECREASE)
    this.lastThrottleAt = now
    this.lastRaisedAt = now
    this.nextAt = Math.max(this.nextAt, now + 1000 / this.perSecond)
  }

  /** Raises the pace slowly, once nothing has been turned away for a while. */
  private raise(now: number): void {
    if (this.perSecond === undefined || now - this.lastThrottleAt < QUIET_MS) return
    const seconds = (now - this.lastRaisedAt) / 1000
    this.perSecond *= 1 + RAISE_PER_SECOND * seconds
    this.lastRaisedAt = now
  }

  private forget(now: number): void {
    const since = now - WINDOW_MS
    let old = 0
    while (old < this.admittedAt.length && (this.admittedAt[old] ?? now) < since) old++
    if (old > 0) this.admittedAt.splice(0, old)
  }
}

/** How far back the rate let in is measured. */
const WINDOW_MS = 1_000
/** The shortest window measured, at the very start of a cleanup. */
const MIN_WINDOW_MS = 100
/** The pace, as a share of the rate let in: a little under it. */
const UNDER = 0.9
/** A pace that was turned away falls at least this far, whatever was measured. */
const DECREASE = 0.9
/** The slowest pace: a platform that lets in fewer than this still gets its requests. */
const MIN_PER_SECOND = 0.2
/** How long after a 429 the pace starts to rise, and how fast: 2 % a second. */
const QUIET_MS = 1_000
const RAISE_PER_SECOND = 0.02
