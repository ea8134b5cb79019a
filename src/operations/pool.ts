// The cleanup's pool: every revoke sent through it, at most `concurrency` at once and at the pace the platform allows.
import type { Clock, Deadline } from '../shared/time.js'
import type { Logger } from '../shared/text.js'

/** A 429 whose request has attempts left: the pool sends it again, not before `waitMs`. */
export interface Throttle {
  /** Retry-After, or the request's backoff without one. */
  waitMs: number
  /** Attempts the request has used, this one included. */
  attemptsUsed: number
}

/** What one send came to: a result, or a 429 to send again. */
export type Sent<R> = { done: R } | { throttled: Throttle }

interface Entry<T> {
  item: T
  index: number
  attemptsUsed: number
  /** Not sent before this time (a throttled one's Retry-After). */
  notBefore: number
}

/** A request in flight: when it was sent, and which others were in flight then. */
interface InFlight {
  beside: InFlight[]
  admitted?: boolean
}

/** The pace, as a share of the rate the platform let in: a little under it. */
const UNDER = 0.9
/** How far back the rate let in is measured, and the least of it at the start. */
const WINDOW_MS = 1_000
const MIN_WINDOW_MS = 100

/**
 * Sends each item with `send`, as many at once as the platform takes and as fast as it lets
 * them in, learning both from its 429s. A request turned away at a depth (the requests of
 * the pool the platform was answering with it) deeper than any let in shows a limit in
 * flight: the pool keeps to the deepest let in. One turned away at a depth let in before
 * shows a rate: the pool paces its sends at a little under the rate let in over the last
 * second. A throttled request gives its slot back at once and waits its own Retry-After,
 * first in line after that; `send` ends a request that used its last attempt. When the
 * deadline runs out, or the step is cancelled, nothing more starts: the items not sent, or
 * whose wait would end after it, are `left`.
 */
export class Pool {
  private limit: number
  /** The deepest depth a request was let in at. */
  private deepest = 0
  /** Milliseconds between two sends, once the platform showed a rate; 0 before. */
  private gap = 0
  private nextSendAt = 0
  private readonly admittedAt: number[] = []
  private startedAt: number | undefined
  private readonly inFlight = new Set<InFlight>()

  constructor(
    concurrency: number,
    private readonly clock: Clock,
    private readonly deadline: Deadline,
    private readonly log: Logger,
  ) {
    this.limit = concurrency
  }

  /** Runs every item to a result, in item order: `send`'s, or `left`'s for one never sent. */
  async run<T, R>(
    items: readonly T[],
    send: (item: T, attemptsUsed: number) => Promise<Sent<R>>,
    left: (item: T) => R,
  ): Promise<R[]> {
    const results = new Array<R>(items.length)
    let next = 0
    let waiting: Entry<T>[] = []
    let bug: { error: unknown } | undefined
    let wake = new AbortController()
    const woken = () => {
      wake.abort()
      wake = new AbortController()
    }
    this.deadline.stopSignal.addEventListener('abort', woken)
    const start = (entry: Entry<T>) => {
      const request: InFlight = { beside: [...this.inFlight] }
      this.inFlight.add(request)
      this.startedAt ??= this.clock.now()
      this.nextSendAt = this.clock.now() + this.gap
      send(entry.item, entry.attemptsUsed)
        .then((sent) => {
          this.inFlight.delete(request)
          request.admitted = 'done' in sent
          // Those turned away took no place at the platform, though in flight here.
          const depth = 1 + request.beside.filter((other) => other.admitted !== false).length
          request.beside = []
          if ('done' in sent) {
            results[entry.index] = sent.done
            this.admitted(depth)
            return
          }
          this.throttled(depth)
          entry.attemptsUsed = sent.throttled.attemptsUsed
          // Spread requests turned away together: 10 ms and a 40th of the wait, at most 100 ms.
          const { waitMs } = sent.throttled
          entry.notBefore =
            this.clock.now() + waitMs + this.clock.jitter() * Math.min(100, 10 + waitMs / 40)
          if (entry.notBefore >= this.clock.now() + this.deadline.remaining())
            results[entry.index] = left(entry.item)
          else waiting.push(entry)
        })
        .catch((error: unknown) => {
          this.inFlight.delete(request)
          bug = { error }
        })
        .finally(woken)
    }
    while (
      bug === undefined &&
      (next < items.length || waiting.length > 0 || this.inFlight.size > 0)
    ) {
      const now = this.clock.now()
      if (this.deadline.expired()) {
        for (const entry of waiting) results[entry.index] = left(entry.item)
        for (; next < items.length; next++) results[next] = left(items[next] as T)
        waiting = []
        if (this.inFlight.size > 0) await ended(wake.signal)
        continue
      }
      const retry = waiting.reduce<Entry<T> | undefined>(
        (first, entry) =>
          first === undefined || entry.notBefore < first.notBefore ? entry : first,
        undefined,
      )
      const ready =
        retry !== undefined && retry.notBefore <= now
          ? retry
          : next < items.length
            ? { item: items[next] as T, index: next, attemptsUsed: 0, notBefore: now }
            : undefined
      const free = this.inFlight.size < this.limit
      if (ready !== undefined && free && this.nextSendAt <= now) {
        if (ready === retry) waiting = waiting.filter((entry) => entry !== retry)
        else next++
        start(ready)
        continue
      }
      const readyAt = ready !== undefined ? now : (retry?.notBefore ?? Infinity)
      const wakeAt = free ? Math.max(readyAt, this.nextSendAt) : Infinity
      if (wakeAt === Infinity) await ended(wake.signal)
      else await this.clock.sleep(wakeAt - now, wake.signal)
    }
    this.deadline.stopSignal.removeEventListener('abort', woken)
    if (bug !== undefined) throw bug.error
    return results
  }

  private admitted(depth: number): void {
    this.deepest = Math.max(this.deepest, depth)
    this.admittedAt.push(this.clock.now())
  }

  /** A 429 at `depth`: a limit in flight when no request got in that deep, else a rate. */
  private throttled(depth: number): void {
    const now = this.clock.now()
    if (depth > this.deepest) {
      const limit = Math.max(1, this.deepest)
      if (limit < this.limit) {
        this.limit = limit
        this.log.info(
          `The platform turns away more than ${limit} revokes in flight: sending ${limit} at a time.`,
        )
      }
      return
    }
    while ((this.admittedAt[0] ?? now) < now - WINDOW_MS) this.admittedAt.shift()
    const windowMs = Math.max(MIN_WINDOW_MS, Math.min(WINDOW_MS, now - (this.startedAt ?? now)))
    const letIn = Math.max(0.2, (this.admittedAt.length * 1000 * UNDER) / windowMs)
    const gap = Math.max(this.gap / UNDER, 1000 / letIn)
    if (this.gap === 0) {
      this.log.info(
        'The platform limits the rate of requests: sending revokes a little slower than it lets them in.',
      )
    }
    this.gap = gap
    this.nextSendAt = Math.max(this.nextSendAt, now + gap)
  }
}

/** Resolves when `signal` aborts. */
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
