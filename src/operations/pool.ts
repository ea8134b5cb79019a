// The cleanup's pool: every revoke sent through it, at most `concurrency` at once and at the pace the platform allows, learnt in both directions.
import { once } from 'node:events'
import type { Clock, Deadline } from '../shared/time.js'
import type { Logger } from '../shared/text.js'

/**
 * What one send came to: a result, or a 429 whose request has attempts left, to send again
 * not before `waitMs` (its Retry-After, else its backoff); `attemptsUsed` counts this one.
 */
export type Sent<R> = { done: R } | { throttled: Throttle }

/** A 429's wait, the attempts its request used, this one included, and what it said. */
export type Throttle = { waitMs: number; attemptsUsed: number; why: string }

/** A request in flight: when, and at what pace, it was sent; the others in flight then. */
interface InFlight {
  sentAt: number
  pace: number
  others: InFlight[]
  turnedAway?: boolean
}

const SECOND = 1_000
/** After a 429 that shows a rate, the pace is this share of the rate the platform let in. */
const UNDER = 0.9
/** A step up of the pace goes this much faster at most; past a pace turned away, PAST. */
const FASTER = 1.5
const PAST = 1.1
/** The slowest pace: a request a second. */
const SLOWEST = 1
/** The shortest and the longest wait between two steps up. */
const FIRST_STEP_MS = 50
const LONGEST_STEP_MS = 1_000

/**
 * What the pool learns, in requests in flight or a second: down on a 429 that shows it, up
 * while the platform lets requests in (AIMD, as TCP and Netflix's concurrency-limits). A step
 * is tried until `triedUntil`. After a 429 the next step waits twice as long (at most
 * LONGEST_STEP_MS), after a step that held a quarter: just under what the platform takes
 * rather than above it again and again, and a capacity given back found within a second or
 * two. The pace keeps the fastest a request was let in at since it came down (`held`), and
 * the slowest turned away (`failed`).
 */
class Learnt {
  private stepMs = FIRST_STEP_MS
  private nextStepAt = 0
  private steppedAt = -Infinity
  /** When it last came down: a 429 to a request sent before that was answered already. */
  downAt = -Infinity
  triedUntil = 0
  held = Infinity
  failed = Infinity

  constructor(public value: number) {}

  down(to: number, now: number, tryMs = 0): boolean {
    if (to >= this.value) return false
    this.value = this.held = to
    this.downAt = now
    this.stepMs = Math.min(LONGEST_STEP_MS, this.stepMs * 2)
    this.nextStepAt = now + this.stepMs
    this.triedUntil = now + tryMs
    return true
  }

  up(to: number, now: number, tryMs: number): boolean {
    if (now < this.nextStepAt) return false
    if (this.steppedAt > this.downAt) this.stepMs = Math.max(FIRST_STEP_MS, this.stepMs / 4)
    this.value = to
    this.steppedAt = now
    this.nextStepAt = now + this.stepMs
    this.triedUntil = now + tryMs
    return true
  }
}

/**
 * Sends each item with `send`, as many at once and as fast as the platform lets in, learning
 * both from its 429s, down and up (Learnt). A request's depth is 1 and those of the pool in
 * flight when it was sent and not turned away. A 429 at a depth no request got in at a
 * moment ago shows that the platform holds fewer at once: the limit comes down to one less
 * (the others got in, answered or not: a gateway answers 429 before those it let in end).
 * Any other 429 shows a rate: a pace above one that held goes back to it; a pace faster than
 * the platform lets in goes a little under that; with none let in for a second, to half. Held
 * back by the limit or the pace, the pool steps it up: the limit by one, the pace halfway to
 * the slowest pace turned away (a little past it when that is near), unless the request at
 * risk, turned away, would come back after the rest is done. A request turned away goes again
 * only once the platform let one in after the last 429, and no step is tried: meanwhile those
 * never sent find out, with all their attempts; none is risked on a step once turned away
 * twice. A throttled request gives its slot back and waits its own Retry-After, first in line
 * after that; `send` ends one that used its last attempt. When the deadline runs out, or the
 * step is cancelled, nothing starts: the items not sent, or whose wait would end after it,
 * are `left` (with that wait).
 */
export class Pool {
  private readonly limit: Learnt
  /** Requests a second; Infinity: not paced. */
  private readonly pace = new Learnt(Infinity)
  private readonly inFlight = new Set<InFlight>()
  private lastSentAt = -Infinity
  /** When requests were sent over the last second. */
  private readonly sentAt: number[] = []
  /** When, and at what depth, requests were let in: over the last second, the last four at least. */
  private readonly letIn: { at: number; depth: number }[] = []
  private turnedAwayAt = -Infinity
  /** How long the last request let in took: how long a step of the limit takes to be answered. */
  private roundTripMs = 0
  /** The wait the last 429 asked for: what a step up that fails costs its request. */
  private lastWaitMs = SECOND
  private said = { limit: Infinity, paced: false }

  constructor(
    private readonly concurrency: number,
    private readonly clock: Clock,
    private readonly deadline: Deadline,
    private readonly log: Logger,
  ) {
    this.limit = new Learnt(concurrency)
  }

  /** Runs every item to a result, in item order: `send`'s, or `left`'s for one never sent. */
  async run<T, R>(
    items: readonly T[],
    send: (item: T, attemptsUsed: number) => Promise<Sent<R>>,
    left: (item: T, throttle?: Throttle) => R,
  ): Promise<R[]> {
    const { clock, deadline } = this
    const results = new Array<R>(items.length)
    // Throttled items first, soonest first, then those never sent; none before `notBefore`.
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
      const sentAt = clock.now()
      const request: InFlight = { sentAt, pace: this.pace.value, others: [...this.inFlight] }
      this.inFlight.add(request)
      this.lastSentAt = sentAt
      this.sentAt.push(sentAt)
      try {
        const sent = await send(entry.item, entry.attemptsUsed)
        const now = clock.now()
        const depth = 1 + request.others.filter((other) => other.turnedAway !== true).length
        if ('done' in sent) {
          results[entry.index] = sent.done
          this.admitted(request, depth, now)
          return
        }
        request.turnedAway = true
        const { waitMs, attemptsUsed } = sent.throttled
        this.throttled(depth, waitMs, request, now)
        entry.attemptsUsed = attemptsUsed
        // Spread requests turned away together: 10 ms and a 40th of the wait, at most 100 ms.
        entry.notBefore = now + waitMs + clock.jitter() * Math.min(100, 10 + waitMs / 40)
        if (entry.notBefore >= now + deadline.remaining())
          results[entry.index] = left(entry.item, sent.throttled)
        else {
          const after = pending.findIndex(
            (other) => other.attemptsUsed === 0 || other.notBefore > entry.notBefore,
          )
          pending.splice(after < 0 ? pending.length : after, 0, entry)
        }
      } catch (error) {
        bug = { error }
      } finally {
        request.others = []
        this.inFlight.delete(request)
        woken()
      }
    }
    while (bug === undefined) {
      const now = clock.now()
      if (deadline.expired())
        for (const entry of pending.splice(0)) results[entry.index] = left(entry.item)
      if (pending.length === 0 && this.inFlight.size === 0) break
      const triedUntil = Math.max(this.limit.triedUntil, this.pace.triedUntil)
      const safe = now >= triedUntil && (this.letIn.at(-1)?.at ?? -Infinity) > this.turnedAwayAt
      const alone = pending.at(-1)?.attemptsUsed !== 0 && this.inFlight.size === 0
      const ready = pending.find(
        (entry) => entry.notBefore <= now && (entry.attemptsUsed === 0 || safe || alone),
      )
      if (ready !== undefined && ready.attemptsUsed < 2) this.stepUp(now, pending)
      const free = this.inFlight.size < this.limit.value
      const paced = this.nextSendAt()
      if (ready !== undefined && free && paced <= now) {
        pending.splice(pending.indexOf(ready), 1)
        void start(ready)
        continue
      }
      // Not yet: the soonest throttled item, one held back when a step ends or a request does,
      // the pace (and, held back by it, its next step up).
      const first = pending[0]?.notBefore ?? Infinity
      const held = first > now ? first : triedUntil > now ? triedUntil : Infinity
      const step = ready !== undefined && paced > now ? now + FIRST_STEP_MS : Infinity
      const wakeAt = free ? Math.min(Math.max(ready ? now : held, paced), step) : Infinity
      // Until a request ends (or the cancel): no timer would ever end this wait.
      if (wakeAt === Infinity) await once(wake.signal, 'abort')
      else await clock.sleep(wakeAt - now, wake.signal)
    }
    deadline.stopSignal.removeEventListener('abort', woken)
    if (bug !== undefined) throw bug.error
    return results
  }

  private admitted(request: InFlight, depth: number, now: number): void {
    this.letIn.push({ at: now, depth })
    this.roundTripMs = now - request.sentAt
    if (request.sentAt >= this.pace.downAt) this.pace.held = Math.max(this.pace.held, request.pace)
  }

  /** A 429 at `depth` to `request`, asking to wait `waitMs`: a limit in flight, or a rate. */
  private throttled(depth: number, waitMs: number, request: InFlight, now: number): void {
    this.lastWaitMs = waitMs
    this.turnedAwayAt = now
    const { limit, pace } = this
    // The platform let as many in at once a moment ago: a rate turned this one away.
    const recent = now - Math.max(SECOND / 10, 4 * this.roundTripMs)
    const deep = this.letIn.some((admitted) => admitted.at >= recent && admitted.depth >= depth)
    if (depth > 1 && !deep) {
      if (!limit.down(depth - 1, now) || depth - 1 >= this.said.limit) return
      this.said.limit = depth - 1
      this.log.info(
        `The platform turned away a revoke with ${depth - 1} others in flight: sending at most ${depth - 1} at a time.`,
      )
      return
    }
    // Once for the requests sent before a cut: they were sent at the pace it cut.
    if (request.sentAt < pace.downAt) return
    pace.failed = Math.min(pace.failed, request.pace)
    const letIn = this.letInPerSecond(now)
    // The pace it was sent at, or, unpaced, the rate sent at since the first of the last second.
    while ((this.sentAt[0] ?? now) <= now - SECOND) this.sentAt.shift()
    const sending = (this.sentAt.length * SECOND) / Math.max(10, now - (this.sentAt[0] ?? now))
    const half = Math.min(request.pace, sending) / 2
    const under =
      letIn === 0 ? Math.max(SLOWEST, half) : letIn < request.pace ? UNDER * letIn : Infinity
    // What it took of a platform's bucket comes back slowly: a gap from now, tried like a step.
    if (!pace.down(request.pace > pace.held ? pace.held : under, now, this.paceTrialMs())) return
    this.lastSentAt = Math.max(this.lastSentAt, now)
    if (!this.said.paced)
      this.log.info(
        'The platform limits the rate of requests: sending revokes a little slower than it lets them in.',
      )
    this.said.paced = true
  }

  /** Held back by the limit or the pace: steps it up, unless its request would come back after the rest is done. */
  private stepUp(now: number, pending: readonly { attemptsUsed: number; notBefore: number }[]) {
    let lastBack = now
    for (const entry of pending) {
      if (entry.attemptsUsed === 0) break
      lastBack = entry.notBefore
    }
    // The work left at the rate let in since the first of the last second's (no estimate under it).
    const since = Math.max(SECOND / 10, now - (this.letIn[0]?.at ?? now))
    const letIn = Math.max(this.letInPerSecond(now), (this.letIn.length * SECOND) / since)
    if (now + this.lastWaitMs >= Math.max(lastBack, now + (pending.length * SECOND) / letIn)) return
    const { limit, pace } = this
    if (this.inFlight.size >= limit.value && limit.value < this.concurrency)
      limit.up(limit.value + 1, now, 2 * this.roundTripMs)
    else if (this.nextSendAt() > now) {
      const near = pace.value >= 0.95 * pace.failed
      const halfway = Math.min(pace.value * FASTER, (pace.value + pace.failed) / 2)
      if (pace.up(near ? pace.value * PAST : halfway, now, this.paceTrialMs()) && near)
        pace.failed = Infinity
    }
  }

  private nextSendAt(): number {
    return this.lastSentAt + SECOND / this.pace.value
  }

  /** How long a pace is tried: a second, or four gaps of the pace that held when longer. */
  private paceTrialMs(): number {
    return Math.max(SECOND, (4 * SECOND) / this.pace.held)
  }

  /** Requests let in a second: over the last second; at a slower rate, over the last four let in. */
  private letInPerSecond(now: number): number {
    const times = this.letIn
    while (times.length > 4 && (times[0]?.at ?? now) <= now - SECOND) times.shift()
    const first = times[0]?.at ?? now
    const last = times.at(-1)?.at ?? now
    if ((times.length >= 4 && first > now - SECOND) || last - first < SECOND / 10)
      return times.filter((time) => time.at > now - SECOND).length
    return ((times.length - 1) * SECOND) / (last - first)
  }
}
