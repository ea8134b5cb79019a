// The cleanup's pool: every revoke sent through it, at most `concurrency` at once and at the pace the platform allows.
import { once } from 'node:events'
import type { Clock, Deadline } from '../shared/time.js'
import type { Logger } from '../shared/text.js'

/**
 * What one send came to: a result, or a 429 whose request has attempts left, to send again
 * not before `waitMs` (its Retry-After, else its backoff); `attemptsUsed` counts this one.
 */
export type Sent<R> = { done: R } | { throttled: { waitMs: number; attemptsUsed: number } }

/** A request in flight: the others in flight when it was sent, and whether it got in. */
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
  /** The deepest depth a request was let in at. */
  private deepest = 0
  /** Milliseconds between two sends, once the platform showed a rate; 0 before. */
  private gap = 0
  private nextSendAt = 0
  private readonly admittedAt: number[] = []
  private startedAt: number | undefined
  private readonly inFlight = new Set<InFlight>()

  /** `limit` starts at the cleanup's concurrency, and comes down to what the platform takes. */
  constructor(
    private limit: number,
    private readonly clock: Clock,
    private readonly deadline: Deadline,
    private readonly log: Logger,
  ) {}

  /** Runs every item to a result, in item order: `send`'s, or `left`'s for one never sent. */
  async run<T, R>(
    items: readonly T[],
    send: (item: T, attemptsUsed: number) => Promise<Sent<R>>,
    left: (item: T) => R,
  ): Promise<R[]> {
    const { clock, deadline } = this
    const results = new Array<R>(items.length)
    // Throttled items, soonest first, then the items never sent, in order; none is sent
    // before its `notBefore` (a throttled one's Retry-After).
    const pending = items.map((item, index) => ({ item, index, attemptsUsed: 0, notBefore: 0 }))
    let bug: { error: unknown } | undefined
    // Aborted, and replaced, whenever a request ends or the step is cancelled.
    let wake = new AbortController()
    const woken = () => {
      wake.abort()
      wake = new AbortController()
    }
    deadline.stopSignal.addEventListener('abort', woken)
    const start = async (entry: (typeof pending)[number]) => {
      const request: InFlight = { beside: [...this.inFlight] }
      this.inFlight.add(request)
      this.startedAt ??= clock.now()
      this.nextSendAt = clock.now() + this.gap
      try {
        const sent = await send(entry.item, entry.attemptsUsed)
        request.admitted = 'done' in sent
        // Those turned away took no place at the platform, though in flight here.
        const depth = 1 + request.beside.filter((other) => other.admitted !== false).length
        request.beside = []
        const now = clock.now()
        if ('done' in sent) {
          results[entry.index] = sent.done
          this.deepest = Math.max(this.deepest, depth)
          this.admittedAt.push(now)
          return
        }
        this.throttled(depth, now)
        const { waitMs } = sent.throttled
        entry.attemptsUsed = sent.throttled.attemptsUsed
        // Spread requests turned away together: 10 ms and a 40th of the wait, at most 100 ms.
        entry.notBefore = now + waitMs + clock.jitter() * Math.min(100, 10 + waitMs / 40)
        if (entry.notBefore >= now + deadline.remaining()) results[entry.index] = left(entry.item)
        else {
          const after = pending.findIndex(
            (other) => other.attemptsUsed === 0 || other.notBefore > entry.notBefore,
          )
          pending.splice(after < 0 ? pending.length : after, 0, entry)
        }
      } catch (error) {
        bug = { error }
      } finally {
        this.inFlight.delete(request)
        woken()
      }
    }
    while (bug === undefined) {
      const now = clock.now()
      if (deadline.expired())
        for (const entry of pending.splice(0)) results[entry.index] = left(entry.item)
      if (pending.length === 0 && this.inFlight.size === 0) break
      const ready = pending.find((entry) => entry.notBefore <= now)
      const free = this.inFlight.size < this.limit
      if (ready !== undefined && free && this.nextSendAt <= now) {
        pending.splice(pending.indexOf(ready), 1)
        void start(ready)
        continue
      }
      const readyAt = ready !== undefined ? now : (pending[0]?.notBefore ?? Infinity)
      const wakeAt = free ? Math.max(readyAt, this.nextSendAt) : Infinity
      // Until a request ends (or the cancel): no timer would ever end this wait.
      if (wakeAt === Infinity) await once(wake.signal, 'abort')
      else await clock.sleep(wakeAt - now, wake.signal)
    }
    deadline.stopSignal.removeEventListener('abort', woken)
    if (bug !== undefined) throw bug.error
    return results
  }

  /** A 429 at `depth`: a limit in flight when no request got in that deep, else a rate. */
  private throttled(depth: number, now: number): void {
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
    if (this.gap === 0) {
      this.log.info(
        'The platform limits the rate of requests: sending revokes a little slower than it lets them in.',
      )
    }
    this.gap = Math.max(this.gap / UNDER, 1000 / letIn)
    this.nextSendAt = Math.max(this.nextSendAt, now + this.gap)
  }
}
