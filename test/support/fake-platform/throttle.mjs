// How a platform throttles, in the ways real ones differ: one model shared by the HTTP fake platform (real time) and the simulation (virtual time).
// @ts-check

/**
 * What is limited: requests being answered at once (`inFlight`), a token bucket
 * (`perSecond` on average, `burst` at once), or a sliding window (`perWindow` requests in
 * any `windowMs`).
 * @typedef {{ inFlight: number } | { perSecond: number, burst: number } | { perWindow: number, windowMs: number }} Limit
 */

/**
 * How a 429 says when to come back: no header, `0`, whole seconds rounded up (at least 1),
 * fractional seconds, an HTTP-date, or an hour (far beyond any step's totalTimeout).
 * @typedef {'none' | '0' | 'seconds' | 'fractional' | 'date' | 'far'} RetryAfterStyle
 */

/**
 * @typedef {object} ThrottleSpec
 * @property {Limit} [limit] none: every request is let in (but for outages)
 * @property {'at once' | 'after latency'} [rejects] when a 429 is answered: at once, before
 *   any work (most gateways and proxies: nginx's limit_req and limit_conn), or after the
 *   latency, as the backend would answer (the default)
 * @property {boolean} [rejectedInFlight] requests being turned away count in flight while they
 *   are answered (a backend that spends a worker on its refusals); only with `after latency`
 * @property {RetryAfterStyle} [retryAfter] default `seconds`
 * @property {{ fromMs: number, untilMs: number, share: number }[]} [shared] from `fromMs` to
 *   `untilMs` after the start, only this share of the limit is ours: another job has the rest
 * @property {{ fromMs: number, untilMs: number }[]} [outages] every request arriving from
 *   `fromMs` to `untilMs` after the start is answered 503, after the latency
 */

/**
 * A request's fate: let in (`refusal` undefined), or refused; `ticket` is handed back to
 * leave() once the request is answered, whatever its fate.
 * @typedef {object} Arrival
 * @property {{ status: 429 | 503, headers: Record<string, string>, atOnce: boolean } | undefined} refusal
 * @property {{ counted: boolean }} ticket
 */

/** The wait a 429 of a limit in flight is told, when it is told one: nobody knows when a slot frees. */
const IN_FLIGHT_WAIT_MS = 1000
/** What `far` tells: an hour. */
const FAR_MS = 3_600_000

/** A platform's throttle: decides on each request's arrival, and counts what is in flight. */
export class Throttle {
  /** Requests counted in flight now. */
  inFlight = 0
  /** The times of the requests let in, for a sliding window. */
  #admitted = /** @type {number[]} */ ([])
  /** @type {{ tokens: number, at: number } | undefined} */
  #bucket
  /** How many requests each kind of refusal turned away. */
  refused = { 429: 0, 503: 0 }

  /**
   * @param {ThrottleSpec} spec
   * @param {number} startMs when the run starts, on the clock that will call arrive()
   */
  constructor(spec, startMs) {
    this.spec = spec
    this.startMs = startMs
  }

  /**
   * A request arriving at `now`.
   * @param {number} now
   * @returns {Arrival}
   */
  arrive(now) {
    const { spec } = this
    if (this.inOutage(now)) {
      this.refused[503]++
      const refusal = { status: /** @type {const} */ (503), headers: {}, atOnce: false }
      return { refusal, ticket: { counted: false } }
    }
    const waitMs = this.#waitMs(now)
    if (waitMs === undefined) {
      this.#take(now)
      this.inFlight++
      return { refusal: undefined, ticket: { counted: true } }
    }
    this.refused[429]++
    const atOnce = spec.rejects === 'at once'
    const counted = !atOnce && spec.rejectedInFlight === true
    if (counted) this.inFlight++
    const headers = retryAfterHeader(spec.retryAfter ?? 'seconds', waitMs, now)
    return { refusal: { status: 429, headers, atOnce }, ticket: { counted } }
  }

  /**
   * The request of `ticket` is answered: it no longer counts in flight.
   * @param {{ counted: boolean }} ticket
   */
  leave(ticket) {
    if (ticket.counted) this.inFlight--
    ticket.counted = false
  }

  /**
   * When a request would first be let in, at `now` or later, for a client that knows the
   * limit: `now`, a later time, or Infinity while it must wait for a request to leave.
   * Outages are not the limit: that client meets them too.
   * @param {number} now
   */
  nextAdmission(now) {
    const wait = this.#waitMs(now)
    if (wait === undefined) return now
    const limit = this.spec.limit
    // A slot frees when a request leaves, or when another job gives back its share.
    const change = this.#nextShareChange(now)
    if (limit !== undefined && 'inFlight' in limit) return change
    return Math.min(now + wait, change)
  }

  /**
   * Whether a request arriving at `now` falls in an outage (and is answered 503): the ideal
   * times count no work done then.
   * @param {number} now
   */
  inOutage(now) {
    const since = now - this.startMs
    return (this.spec.outages ?? []).some(
      ({ fromMs, untilMs }) => since >= fromMs && since < untilMs,
    )
  }

  /** The share of the limit that is ours at `now`. @param {number} now */
  share(now) {
    const since = now - this.startMs
    const part = (this.spec.shared ?? []).find((s) => since >= s.fromMs && since < s.untilMs)
    return part?.share ?? 1
  }

  /**
   * What the limit lets through at `now`: requests in flight, or requests a second (a window's
   * count per its length), for the ideal times the simulation and the benchmark compare with.
   * @param {number} now
   */
  capacity(now) {
    const { limit } = this.spec
    if (limit === undefined) return { inFlight: Infinity, perSecond: Infinity }
    const share = this.share(now)
    if ('inFlight' in limit)
      return { inFlight: Math.max(1, Math.floor(limit.inFlight * share)), perSecond: Infinity }
    if ('perSecond' in limit) return { inFlight: Infinity, perSecond: limit.perSecond * share }
    return { inFlight: Infinity, perSecond: (limit.perWindow * share * 1000) / limit.windowMs }
  }

  /**
   * undefined when a request arriving at `now` is let in; else how long until one would be
   * (in flight: unknown, so IN_FLIGHT_WAIT_MS).
   * @param {number} now
   * @returns {number | undefined}
   */
  #waitMs(now) {
    const { limit } = this.spec
    if (limit === undefined) return undefined
    const share = this.share(now)
    if ('inFlight' in limit) {
      const max = Math.max(1, Math.floor(limit.inFlight * share))
      return this.inFlight < max ? undefined : IN_FLIGHT_WAIT_MS
    }
    if ('perSecond' in limit) {
      const rate = limit.perSecond * share
      const burst = Math.max(1, limit.burst * share)
      const bucket = this.#bucket ?? { tokens: burst, at: now }
      bucket.tokens = Math.min(burst, bucket.tokens + ((now - bucket.at) * rate) / 1000)
      bucket.at = now
      this.#bucket = bucket
      // A hair under 1 is 1: the time nextAdmission() tells must let the request in.
      return bucket.tokens >= 1 - 1e-9 ? undefined : ((1 - bucket.tokens) * 1000) / rate
    }
    const max = Math.max(1, Math.floor(limit.perWindow * share))
    while ((this.#admitted[0] ?? Infinity) <= now - limit.windowMs) this.#admitted.shift()
    if (this.#admitted.length < max) return undefined
    const oldest = this.#admitted[this.#admitted.length - max] ?? now
    return oldest + limit.windowMs - now
  }

  /** Counts a request let in at `now` against a bucket or a window. @param {number} now */
  #take(now) {
    if (this.#bucket !== undefined) this.#bucket.tokens -= 1
    else if (this.spec.limit !== undefined && 'perWindow' in this.spec.limit)
      this.#admitted.push(now)
  }

  /** The next time after `now` at which our share of the limit changes. @param {number} now */
  #nextShareChange(now) {
    const since = now - this.startMs
    const edges = (this.spec.shared ?? []).flatMap((s) => [s.fromMs, s.untilMs])
    const next = Math.min(...edges.filter((edge) => edge > since))
    return next === Infinity ? Infinity : this.startMs + next
  }
}

/**
 * The Retry-After header of a 429 telling a wait of `waitMs` at `now`, in `style`.
 * @param {RetryAfterStyle} style
 * @param {number} waitMs
 * @param {number} now
 * @returns {Record<string, string>}
 */
export function retryAfterHeader(style, waitMs, now) {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000))
  switch (style) {
    case 'none':
      return {}
    case '0':
      return { 'Retry-After': '0' }
    case 'seconds':
      return { 'Retry-After': String(seconds) }
    case 'fractional':
      return { 'Retry-After': (Math.max(1, Math.ceil(waitMs / 10)) / 100).toFixed(2) }
    case 'date':
      // An HTTP-date has whole seconds: the wait it tells is rounded up to one.
      return { 'Retry-After': new Date((Math.floor(now / 1000) + seconds) * 1000).toUTCString() }
    case 'far':
      return { 'Retry-After': String(FAR_MS / 1000) }
  }
}
