// How many revokes a cleanup keeps in flight: learnt from which ones the platform let in.

/**
 * A request is sent at a depth: how many of the cleanup's requests were in flight with it,
 * itself included. The platform's answers say which depths it takes: one let in at depth
 * d shows that it takes d at once; one turned away (429) at a depth it never took shows
 * where its limit is. So the limit falls at once to the deepest depth let in, not by
 * halves below what worked, and remembers where the platform said no.
 */
export class InFlightLimit {
  /** The deepest depth a request was let in at. */
  private good = 0
  /** The shallowest depth a request was turned away at, believed to be over the limit. */
  private bad = Infinity
  private current: number
  /** Requests let in since the limit last grew: it grows by one per round of them. */
  private round = 0
  private lastThrottleAt = -Infinity
  /** How long the limit stays at the ceiling before trying one more; doubled after a miss. */
  private probeAfterMs = FIRST_PROBE_AFTER_MS
  private probing = false
  /** Requests let in at the probe's depth: a round of them keeps the probe. */
  private probeRound = 0

  /** @param max the most in flight at once (the concurrency input) */
  constructor(private readonly max: number) {
    this.current = max
  }

  /** How many may be in flight now. */
  get value(): number {
    return this.current
  }

  /** What the limit is known to be: a depth the platform turned away, if any. */
  get ceiling(): number | undefined {
    return this.bad === Infinity ? undefined : this.bad - 1
  }

  /**
   * A request sent at `depth` was let in (any answer but 429). The depth is counted by the
   * client, which sees an answer a moment after the platform let go of its request: it
   * may be one or two more than the platform saw. So only a probe raises the ceiling.
   */
  admitted(depth: number): void {
    // A probe got in, for a whole round: the platform takes one more than it did. (One that
    // got in alone may have been counted a place too deep, and so prove nothing.)
    if (this.probing && depth >= this.current && ++this.probeRound >= this.current) {
      this.probing = false
      this.bad = this.current + 1
    }
    this.good = Math.max(this.good, Math.min(depth, this.bad - 1))
    const ceiling = Math.min(this.max, this.bad - 1)
    if (this.current < ceiling && ++this.round >= this.current) {
      // Up to a limit it turned away before, one at a time; with none known, by doubling.
      this.current = Math.min(ceiling, this.bad === Infinity ? this.current * 2 : this.current + 1)
      this.round = 0
    }
  }

  /**
   * A request sent at `depth` was turned away (429). At or beyond the deepest depth let in,
   * that is the in-flight limit: the limit falls below it. Shallower than a depth the
   * platform took before, or alone in flight, the limit is not on requests in flight but
   * on their rate: the limit stays, and the caller paces instead.
   */
  throttled(depth: number, now: number): 'in flight' | 'rate' {
    if (this.good === 0) {
      // Nothing got in yet: the limit, whatever it is on, is not known. One at a time
      // until something gets in, then back up by doubling.
      this.current = 1
      this.round = 0
      return 'in flight'
    }
    // Shallower than what got in before (or alone in flight): not the in-flight limit. At
    // the same depth, it may be: the depth of what got in may have been counted high.
    if (depth < this.good || depth === 1) return 'rate'
    this.bad = Math.min(this.bad, depth)
    this.good = Math.min(this.good, this.bad - 1)
    this.current = Math.max(1, Math.min(this.current, this.bad - 1))
    this.round = 0
    this.lastThrottleAt = now
    if (this.probing) {
      this.probing = false
      this.probeAfterMs *= 2
    }
    return 'in flight'
  }

  /**
   * At the ceiling, tries one more now and then: the platform's limit may have risen. Only
   * long enough after the last 429, and only while `remaining` requests are enough work
   * that one more in flight saves more than the 429 of a probe that misses costs.
   */
  probe(now: number, remaining: number): void {
    const ceiling = this.ceiling
    if (ceiling === undefined || this.probing || this.current !== ceiling) return
    if (this.current >= this.max || now - this.lastThrottleAt < this.probeAfterMs) return
    if (remaining < PROBE_WORTH_ROUNDS * (this.current + 1)) return
    this.current++
    this.probing = true
    this.probeRound = 0
    this.lastThrottleAt = now
  }
}

/** The first probe above the ceiling waits this long after the 429 that set it. */
const FIRST_PROBE_AFTER_MS = 2_000
/** A probe is tried only with at least this many rounds of work left at the new limit. */
const PROBE_WORTH_ROUNDS = 10
