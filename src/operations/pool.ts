// The cleanup's pool: every revoke sent through it, at most `concurrency` at once and at the pace the platform allows, learnt in both directions.
import { once } from 'node:events'
import { backoffDelay } from '../platform/failures.js'
import type { ThrottledError } from '../shared/errors.js'
import type { Clock, Deadline } from '../shared/time.js'
import type { Logger } from '../shared/text.js'
import { FIRST_STEP_MS, Learnt } from './learnt.js'

/**
 * What one send came to: a result, or a 429 with attempts left. A result of a request the
 * platform did not take in (a 429 to its last attempt, any failure) teaches nothing: `failed`.
 */
export type Sent<R> = { done: R; failed?: true } | { throttled: ThrottledError['throttle'] }
/** A request in flight: when and at what pace it was sent, the others in flight then, when it was answered, whether it was turned away (a platform may count it in flight meanwhile). */
type InFlight = { sentAt: number; pace: number; others: InFlight[]; answeredAt?: number } & {
  turnedAway?: true
}

const SECOND = 1_000
/** After a 429 that shows a rate, the pace is this share of the rate the platform let in. */
const UNDER = 0.9
/** A step up of the pace goes this much faster at most; past a pace turned away, PAST. */
const FASTER = 1.5
const PAST = 1.1

/**
 * Sends items as many at once and as fast as the platform lets in: a limit in flight and a pace
 * (Learnt), down on a 429 that shows one (throttled), up while held back by it (stepUp). Each
 * rule, and why: docs/RELIABILITY.md, "Rate limits in a cleanup".
 */
export class Pool {
  private readonly limit: Learnt
  /** Requests a second; Infinity: not paced. */
  private readonly pace = new Learnt(Infinity)
  private readonly inFlight = new Set<InFlight>()
  /** When requests were sent over the last second, the last one at least. */
  private readonly sentAt: number[] = []
  /**
   * When, at what depth and in how long a round trip requests were let in: over the last second,
   * the last four at least. The last one's round trip is how long a step of the limit takes to
   * be answered. A depth counts the others not answered yet, until one is turned away.
   */
  private readonly letIn: { at: number; depth: number; ms: number; others: InFlight[] }[] = []
  /** The shortest round trip of a request let in: its way there, its work and its way back. */
  private fastestMs = Infinity
  /** When the last 429 came, and the wait it asked for: what a step up that fails costs its request. */
  private last429 = { at: -Infinity, waitMs: SECOND }
  /** The lowest limit in flight the log has told. */
  private saidLimit = Infinity
  /** The last step from 1 was turned away (the next goes further apart), or set the pace. */
  private spaced?: 'out' | 'paced'

  constructor(
    private readonly concurrency: number,
    private readonly clock: Clock,
    private readonly deadline: Deadline,
    private readonly log: Logger,
  ) {
    this.limit = new Learnt(concurrency)
  }

  /** Each item's result, in item order: `send`'s, or `left`'s for one not sent (again) in time. */
  async run<T, R>(
    items: readonly T[],
    send: (item: T, attemptsUsed: number) => Promise<Sent<R>>,
    left: (item: T, throttle?: ThrottledError['throttle']) => R,
  ): Promise<R[]> {
    const { clock, deadline, limit, pace } = this
    const results = new Array<R>(items.length)
    // Throttled items first, soonest first, then those never sent; none before `notBefore`;
    // `last`: the next send is the item's last attempt.
    const pending = items.map((item, index) => ({
      item,
      index,
      attemptsUsed: 0,
      notBefore: 0,
      last: false,
    }))
    let bug: { error: unknown } | undefined
    let wake = new AbortController()
    const woken = () => {
      wake.abort()
      wake = new AbortController()
    }
    deadline.stopSignal.addEventListener('abort', woken)
    const start = async (entry: (typeof pending)[number], spacedMs?: number) => {
      const sentAt = clock.now()
      const request: InFlight = { sentAt, pace: pace.value, others: [...this.inFlight] }
      this.inFlight.add(request)
      this.sentAt.push(sentAt)
      try {
        const sent = await send(entry.item, entry.attemptsUsed)
        const now = clock.now()
        // The others at the platform with it: a client sends one after another, so one answered
        // a round trip before this one's answer was gone when it got there. Where the way back
        // blurs that, a depth let in is the fewest, one turned away the most (with ours turned
        // away and answered after it got there: a platform may count them while it answers).
        // The blur: a quarter of the shortest round trip, and a network's jitter, read as how
        // much longer the slowest of the last four let in took (none let in yet: none).
        const slowest = Math.max(...this.letIn.slice(-4).map(({ ms }) => ms))
        const blur = Math.max(0, slowest - (3 * this.fastestMs) / 4) * ('done' in sent ? 1 : -1)
        const arrivedAt = Math.max(request.sentAt, now - this.fastestMs) + blur
        const there = (other: InFlight) =>
          (other.turnedAway === undefined || blur < 0) && (other.answeredAt ?? Infinity) > arrivedAt
        const depth = 1 + request.others.filter(there).length
        if ('done' in sent) {
          results[entry.index] = sent.done
          if (sent.failed) return
          this.letIn.push({ at: now, depth, ms: now - request.sentAt, others: request.others })
          this.fastestMs = Math.min(this.fastestMs, now - request.sentAt)
          if (request.sentAt >= pace.downAt) pace.held = Math.max(pace.held, request.pace)
          // A step from 1 let in, sent that long after the other while it was in flight: two fit
          // that far apart, if not at once (a token bucket with a burst of 1): a pace of one per
          // spacing.
          const besideOne = spacedMs !== undefined && request.others.length > 0
          if (besideOne && pace.down(SECOND / spacedMs, now)) this.spaced = 'paced'
          return
        }
        request.turnedAway = true
        if (spacedMs !== undefined) this.spaced = 'out'
        for (const admitted of this.letIn) if (admitted.others.includes(request)) admitted.depth--
        const { attemptsUsed, guessed, waitMs: told } = sent.throttled
        // Read as the limit in flight, a 429 that said nothing of when needs a free slot, not a
        // backoff's guess: it goes again within the lowered limit (as TCP's fast retransmit).
        const waitMs = this.throttled(depth, request, now) && guessed === true ? 0 : told
        this.last429 = { at: now, waitMs }
        entry.attemptsUsed = attemptsUsed
        entry.last = sent.throttled.last === true
        // Spread requests turned away together: 10 ms and a 40th of the wait, at most 100 ms.
        entry.notBefore = now + waitMs + clock.jitter() * Math.min(100, 10 + waitMs / 40)
        const before = (other: typeof entry) =>
          other.attemptsUsed !== 0 && other.notBefore <= entry.notBefore
        if (entry.notBefore >= now + deadline.remaining())
          results[entry.index] = left(entry.item, sent.throttled)
        else pending.splice(pending.findLastIndex(before) + 1, 0, entry)
      } catch (error) {
        bug = { error }
      } finally {
        request.answeredAt = clock.now()
        request.others = []
        this.inFlight.delete(request)
        woken()
      }
    }
    while (bug === undefined) {
      const now = clock.now()
      // What was let in and sent over the last second (the last four let in, the last sent, at
      // least): the evidence of a rate, and of the depth the limit has been filled to.
      while (this.letIn.length > 4 && (this.letIn[0]?.at ?? now) <= now - SECOND) this.letIn.shift()
      while (this.sentAt.length > 1 && (this.sentAt[0] ?? now) <= now - SECOND) this.sentAt.shift()
      if (deadline.expired())
        for (const entry of pending.splice(0)) results[entry.index] = left(entry.item)
      if (pending.length === 0 && this.inFlight.size === 0) break
      const fresh = pending.at(-1)?.attemptsUsed === 0
      // A last attempt goes alone and apart: nothing else in flight, and the longest the platform
      // took between two it let in over the last second (none, or one: no wait) after the last
      // sent, as a bucket refills: a platform kept at its limit has room for it then (alone, one
      // was turned away a fourth time 80 ms after another got in, under a bucket of 8 a second).
      // No step is tried meanwhile.
      const final = pending.find((entry) => entry.last && entry.notBefore <= now)
      if (final === undefined) this.stepUp(now, pending)
      const triedUntil = Math.max(limit.triedUntil, pace.triedUntil)
      // One turned away goes again once one got in after the last 429 and no step is tried (or
      // none is left to try one on), or alone (those never sent find out first).
      const gotIn = (this.letIn.at(-1)?.at ?? -Infinity) > this.last429.at
      const safe = fresh ? now >= triedUntil && gotIn : gotIn || this.inFlight.size === 0
      const ready =
        final ?? pending.find((entry) => entry.notBefore <= now && (safe || !entry.attemptsUsed))
      const free = final ? this.inFlight.size === 0 : this.inFlight.size < limit.value
      // A step from a limit of 1 sends its request half the shortest round trip after the other,
      // as TCP paces: a token bucket with a burst of 1 refuses two sent together, as a limit of 1
      // does (spacing every step's request cost limits of 2 that count refusals 5 to 10 %).
      // (Spaced further, three quarters, once one was turned away: a bucket's gap is longer.)
      const sentLast = this.sentAt.at(-1) ?? now
      const step = limit.value === 2 && limit.steppedUp && sentLast <= limit.changedAt
      const spacing = (this.fastestMs * (this.spaced === undefined ? 2 : 3)) / 4
      const lastSecond = final ? this.letIn.filter(({ at }) => at > now - SECOND) : []
      const gaps = lastSecond.map(({ at }, i) => at - (lastSecond[i - 1]?.at ?? at))
      const apart = final ? sentLast + Math.max(0, ...gaps) : now
      const paced = Math.max(this.nextSendAt(), step ? sentLast + spacing : now, apart)
      if (ready !== undefined && free && paced <= now) {
        pending.splice(pending.indexOf(ready), 1)
        void start(ready, step ? now - sentLast : undefined)
        continue
      }
      // Not yet: at the pace (ready, its next step up), else the soonest throttled item or a step.
      const first = pending[0]?.notBefore ?? Infinity
      const held = first > now ? first : triedUntil > now ? triedUntil : Infinity
      const wakeAt = ready ? Math.min(paced, now + FIRST_STEP_MS) : Math.max(held, paced)
      // Until a request ends (or the cancel): no timer would end this wait.
      if (!free || wakeAt === Infinity) await once(wake.signal, 'abort')
      else await clock.sleep(wakeAt - now, wake.signal)
    }
    deadline.stopSignal.removeEventListener('abort', woken)
    if (bug !== undefined) throw bug.error
    return results
  }

  /** Reads a 429: true when it shows the limit in flight, false when a rate. */
  private throttled(depth: number, request: InFlight, now: number): boolean {
    const { pace } = this
    // The platform let as many in at once a moment ago: a rate turned this one away. So did
    // it one sent at a pace tried past one that held (or before any), while a step from 1 set
    // the pace (a bucket with a burst of 1, two paced apart): the pace's step failed, not the
    // limit (read so with any pace, buckets with a burst went from 1.0 to 1.4 times).
    const recent = now - Math.max(SECOND / 10, 4 * (this.letIn.at(-1)?.ms ?? 0))
    const deep = this.letIn.some((admitted) => admitted.at >= recent && admitted.depth >= depth)
    const paceTried = request.pace > pace.held && this.spaced === 'paced'
    if (depth > 1 && !deep && !paceTried) {
      if (!this.limit.down(depth - 1, now) || depth - 1 >= this.saidLimit) return true
      this.saidLimit = depth - 1
      this.log.info(
        `The platform turned away a revoke with ${depth - 1} other${depth === 2 ? '' : 's'} in flight: sending at most ${depth - 1} at a time.`,
      )
      return true
    }
    // Once for the requests sent before a cut: they were sent at the pace it cut.
    if (request.sentAt < pace.downAt) return false
    pace.failed = Math.min(pace.failed, request.pace)
    // Let in a second: those of the last second, or at a slower rate the last four, over the
    // time since the first of them was sent, a second at least: a pool younger than a second
    // cannot tell a burst a window let in from a rate (a faster guess cut the pace again at
    // each 429 while a window was spent, and a revoke ran out of attempts).
    const first = this.letIn[0] ?? { at: now, ms: 0 }
    const letIn = (this.letIn.length * SECOND) / Math.max(SECOND, now - first.at + first.ms)
    // The pace it was sent at, or, unpaced, the rate sent at since the first of the last second;
    // none let in, half that, a request a second at least.
    const sending = (this.sentAt.length * SECOND) / Math.max(10, now - (this.sentAt[0] ?? now))
    const half = Math.max(1, Math.min(request.pace, sending) / 2)
    const under = letIn === 0 ? half : letIn < request.pace ? UNDER * letIn : Infinity
    // What it took of a platform's bucket comes back slowly: a gap from now (nextSendAt), tried
    // like a step. Said once, the first time the pace comes down.
    const once = pace.downAt === -Infinity
    if (pace.down(request.pace > pace.held ? pace.held : under, now, this.paceTrialMs()) && once)
      this.log.info(
        'The platform limits the rate of requests: sending revokes a little slower than it lets them in.',
      )
    return false
  }

  private stepUp(now: number, pending: readonly { attemptsUsed: number; notBefore: number }[]) {
    const { limit, pace } = this
    const atLimit = this.inFlight.size >= limit.value && limit.value < this.concurrency
    // A step is tried on a request never sent (of the limit, while they fill a round at the new
    // one: its last is the one over it), or, none left, on one turned away once, whose second
    // 429 would cost it a backoff too (the call loop's at its longest: its own, when the 429
    // names no wait; pricing it at the floor under a told wait slowed buckets with a burst).
    const fresh = pending.length - 1 - pending.findLastIndex((entry) => entry.attemptsUsed !== 0)
    const next = fresh > (atLimit ? limit.value : 0) ? pending.at(-1) : pending[0]
    if (next === undefined || next.attemptsUsed > 1 || next.notBefore > now) return
    // The last round trip let in, a millisecond at least (the clock's grain); the work left at
    // the most the pool sends now: its limit a round trip, or its pace.
    const roundTrip = Math.max(1, this.letIn.at(-1)?.ms ?? Infinity)
    const rate = Math.min(pace.value, (limit.value * SECOND) / roundTrip)
    const backoff = next.attemptsUsed && backoffDelay(next.attemptsUsed + 1, 1)
    const failedAt = now + this.last429.waitMs + backoff
    const workMs = (pending.length * SECOND) / rate
    if (failedAt >= now + workMs) return
    // The limit steps once the platform had that many at once (TCP's window validation: a
    // window the sender does not fill is not grown). Its steps wait an eighth of the work left
    // at most, however many 429s answered them: a share another job gives back is found while
    // there is work to use it on (a step of the pace that fails costs a burst of 429s: its wait
    // keeps growing).
    if (atLimit && this.letIn.some((admitted) => admitted.depth >= limit.value))
      limit.up(limit.value + 1, now, 2 * roundTrip, workMs / 8)
    else if (!atLimit && this.nextSendAt() > now) {
      const near = pace.value >= 0.95 * pace.failed
      const halfway = Math.min(pace.value * FASTER, (pace.value + pace.failed) / 2)
      if (pace.up(near ? pace.value * PAST : halfway, now, this.paceTrialMs()) && near)
        pace.failed = Infinity
    }
  }

  /** A gap at the pace after the last request sent, or after the pace came down if later. */
  private nextSendAt(): number {
    return Math.max(this.sentAt.at(-1) ?? -Infinity, this.pace.downAt) + SECOND / this.pace.value
  }

  private readonly paceTrialMs = () => Math.max(SECOND, (4 * SECOND) / this.pace.held)
}
