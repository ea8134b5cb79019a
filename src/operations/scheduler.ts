// The one scheduler of a cleanup's revokes: every send goes through it, at the platform's pace.
import type { Clock } from '../shared/clock.js'
import type { Deadline } from '../shared/deadline.js'
import type { Logger } from '../shared/logger.js'
import { InFlightLimit } from './in-flight-limit.js'
import { RatePacer } from './rate-pacer.js'

/** A 429 whose request has attempts left: the scheduler sends it again when it chooses. */
export interface Throttle {
  /** The wait Retry-After asked for; undefined without one. */
  retryAfterMs: number | undefined
  /** The request's own backoff, for a 429 without Retry-After. */
  backoffMs: number
  /** Attempts the request has used, this one included. */
  attemptsUsed: number
}

/** What one send came to: a result, or a 429 to send again. */
export type Sent<R> = { done: R } | { throttled: Throttle }

interface Entry<T> {
  item: T
  index: number
  attemptsUsed: number
  /** Not sent again before this time: its Retry-After, or its backoff, with jitter. */
  notBefore: number
}

/**
 * Sends each item with `send`, as many at once as the platform takes and as fast as it
 * lets them in. A throttled request gives its slot back at once: it goes back to the head
 * of the queue, not to be sent before its own Retry-After (with a little jitter), and other
 * items use the slot meanwhile. The in-flight limit and the pace are learnt from which
 * requests the platform let in (InFlightLimit, RatePacer). Attempts stay bounded: `send`
 * returns `done` once a request has used them all. When `deadline` runs out, nothing more
 * starts; what was not sent is `left`.
 */
export class Scheduler {
  private readonly limit: InFlightLimit
  private readonly pacer = new RatePacer()
  private readonly requests = new Depths()
  private reported = { ceiling: undefined as number | undefined, paced: false }

  constructor(
    maxInFlight: number,
    private readonly clock: Clock,
    private readonly deadline: Deadline,
    private readonly log: Logger,
  ) {
    this.limit = new InFlightLimit(maxInFlight)
  }

  /** Requests that may be in flight now (read by tests, to watch the limit learn). */
  get inFlightLimit(): number {
    return this.limit.value
  }

  /** Requests a second it paces at, or undefined when it does not pace. */
  get pace(): number | undefined {
    return this.pacer.rate
  }

  /** Runs every item to a result, in item order: `send`'s, or `left`'s for one never sent. */
  async run<T, R>(
    items: readonly T[],
    send: (item: T, attemptsUsed: number) => Promise<Sent<R>>,
    left: (item: T) => R,
  ): Promise<R[]> {
    const results = new Array<R>(items.length)
    // Items never sent, in order; `next` is the first of them still to send.
    let next = 0
    // Items sent and throttled, waiting for their time: they go before the others.
    let waiting: Entry<T>[] = []
    let inFlight = 0
    let bug: { error: unknown } | undefined
    // Aborted, and replaced, each time a send ends: the moment to look again.
    let changed = new AbortController()

    const start = (entry: Entry<T>) => {
      inFlight++
      const request = this.requests.sent(this.clock.now())
      this.pacer.sent(request.sentAt)
      send(entry.item, entry.attemptsUsed)
        .then((sent) => {
          inFlight--
          const now = this.clock.now()
          const depth = this.requests.ended(request, 'done' in sent)
          if ('done' in sent) {
            results[entry.index] = sent.done
            this.limit.admitted(depth)
            this.pacer.admitted(now)
          } else {
            this.throttled(entry, sent.throttled, depth, now)
            if (this.endsAfterDeadline(entry.notBefore)) results[entry.index] = left(entry.item)
            else waiting.push(entry)
          }
        })
        .catch((error: unknown) => {
          // A send that throws is a bug: nothing more starts, and the run fails with it.
          inFlight--
          bug = { error }
        })
        .finally(wake)
    }
    // Aborts `changed`, and replaces it: a send ended, or the step was cancelled.
    const wake = () => {
      const waking = changed
      changed = new AbortController()
      waking.abort()
    }
    // A cancel wakes the loop too: what was not sent is then left.
    this.deadline.stopSignal.addEventListener('abort', wake)

    while (bug === undefined && (next < items.length || waiting.length > 0 || inFlight > 0)) {
      const now = this.clock.now()
      if (this.deadline.expired()) {
        for (const entry of waiting) results[entry.index] = left(entry.item)
        for (; next < items.length; next++) results[next] = left(items[next] as T)
        waiting = []
        if (inFlight > 0) await ended(changed.signal)
        continue
      }
      this.limit.probe(now, items.length - next + waiting.length)
      const sendAt = this.pacer.nextSendAt(now)
      const retry = soonest(waiting)
      const ready =
        retry !== undefined && retry.notBefore <= now
          ? retry
          : next < items.length
            ? { item: items[next] as T, index: next, attemptsUsed: 0, notBefore: now }
            : undefined
      if (ready !== undefined && inFlight < this.limit.value && sendAt <= now) {
        if (ready === retry) waiting = waiting.filter((entry) => entry !== retry)
        else next++
        start(ready)
        continue
      }
      // Wait for a send to end, or for the time the next one may go.
      const readyAt = ready !== undefined ? now : (retry?.notBefore ?? Infinity)
      const wakeAt = inFlight < this.limit.value ? Math.max(readyAt, sendAt) : Infinity
      if (wakeAt === Infinity) await ended(changed.signal)
      else await this.clock.sleep(wakeAt - now, changed.signal)
    }
    this.deadline.stopSignal.removeEventListener('abort', wake)
    if (bug !== undefined) throw bug.error
    return results
  }

  /** A 429: learn from it, and put the request back to be sent again, not before its wait. */
  private throttled(entry: Entry<unknown>, throttle: Throttle, depth: number, now: number): void {
    const kind = this.limit.throttled(depth, now)
    if (kind === 'rate') this.pacer.throttled(now)
    // Under a rate limit, at least two of the new pace's intervals: others go first, so that
    // while the pace settles, the 429s fall on many requests, not again and again on one.
    const pace = this.pacer.rate
    const settle = kind === 'rate' && pace !== undefined ? 2000 / pace : 0
    // Turned away twice: also its backoff, so that its last attempts wait for the pace to settle.
    const backoff = throttle.attemptsUsed >= 2 ? throttle.backoffMs : 0
    const wait = Math.max(throttle.retryAfterMs ?? throttle.backoffMs, settle, backoff)
    // A little jitter, so that requests turned away together do not come back together: 10 ms
    // and a 40th of the wait, at most 100 ms. The in-flight limit and the pace already space
    // this cleanup's own sends; more would only delay the last ones (the bench's tail).
    entry.notBefore = now + wait + this.clock.jitter() * Math.min(100, 10 + wait / 40)
    entry.attemptsUsed = throttle.attemptsUsed
    this.say()
  }

  /** Says once what the platform's limits turned out to be, and again when they change. */
  private say(): void {
    const ceiling = this.limit.ceiling
    if (ceiling !== undefined && ceiling !== this.reported.ceiling) {
      this.reported.ceiling = ceiling
      this.log.info(
        `The platform turns away more than ${ceiling} revokes in flight: sending ${this.limit.value} at a time.`,
      )
    }
    const pace = this.pacer.rate
    if (pace !== undefined && !this.reported.paced) {
      this.reported.paced = true
      this.log.info(
        `The platform limits the rate of requests: sending about ${pace.toFixed(1)} revokes a second, more as it allows.`,
      )
    }
  }

  private endsAfterDeadline(time: number): boolean {
    return time >= this.clock.now() + this.deadline.remaining()
  }
}

/** A request sent, and once answered, whether the platform let it in. */
interface SentRequest {
  sentAt: number
  /** The requests in flight when it was sent, as the client saw them. */
  beside: SentRequest[]
  admitted?: boolean
}

/**
 * The depth a request met at the platform: how many requests the platform was answering
 * when it arrived, itself included. Counted once it is answered, from the requests that
 * were in flight when it was sent, less those the platform turned away (429): those took
 * no place there, although the client counted them in flight until their answer came, and
 * counting them would make a limit of 4 look like 8.
 */
class Depths {
  private inFlight = new Set<SentRequest>()

  sent(now: number): SentRequest {
    const request: SentRequest = { sentAt: now, beside: [...this.inFlight] }
    this.inFlight.add(request)
    return request
  }

  /** Marks `request` answered, and returns the depth it met. */
  ended(request: SentRequest, admitted: boolean): number {
    this.inFlight.delete(request)
    request.admitted = admitted
    const depth = 1 + request.beside.filter((other) => other.admitted !== false).length
    request.beside = []
    return depth
  }
}

/** The waiting entry whose time comes first. */
function soonest<T>(waiting: readonly Entry<T>[]): Entry<T> | undefined {
  let first: Entry<T> | undefined
  for (const entry of waiting)
    if (first === undefined || entry.notBefore < first.notBefore) first = entry
  return first
}

/** Resolves when `signal` aborts: a send ended. */
function ended(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve()
    else
      signal.addEventListener(
        'abort',
        () => {
          resolve()
        },
        { once: true },
      )
  })
}
