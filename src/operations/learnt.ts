// What the cleanup's pool learns of a platform's limit, in requests in flight or a second: down on a 429 that shows it, up step by step (AIMD).

/** The first wait between two steps up, and the longest one (a caller may cap it lower). */
export const FIRST_STEP_MS = 50
const LONGEST_STEP_MS = 1_000

/**
 * What the pool learns, in requests in flight or a second (AIMD): down on a 429 that shows it,
 * up step by step, each step tried until `triedUntil`; the next one waits twice as long after a
 * 429, a quarter as long after a step that held, and no longer than the caller's `capMs` (but
 * the first step's wait).
 * The pace also keeps the fastest pace let in since it came down (`held`) and the slowest
 * turned away (`failed`).
 */
export class Learnt {
  private stepMs = FIRST_STEP_MS
  /** When it last changed: a step up, if later than `downAt` (steppedUp). */
  changedAt = -Infinity
  /** When it last came down: a 429 to a request sent before that was answered already. */
  downAt = -Infinity
  triedUntil = 0
  held = Infinity
  failed = Infinity

  constructor(public value: number) {}

  /** The last change was a step up, not brought down since (held, once its trial is over). */
  get steppedUp(): boolean {
    return this.changedAt > this.downAt
  }

  down(to: number, now: number, tryMs = 0): boolean {
    if (to >= this.value) return false
    // A step up that a 429 answers while it is tried: the next one waits twice as long. Any
    // other fall (the first 429, another job taking a share) says nothing of stepping.
    if (this.steppedUp && now < this.triedUntil)
      this.stepMs = Math.min(LONGEST_STEP_MS, this.stepMs * 2)
    this.value = this.held = to
    this.downAt = this.changedAt = now
    this.triedUntil = now + tryMs
    return true
  }

  /** A step up, once the wait since the last change is over (`capMs` at most, the first's at least). */
  up(to: number, now: number, tryMs: number, capMs = Infinity): boolean {
    if (now < this.changedAt + Math.min(this.stepMs, Math.max(FIRST_STEP_MS, capMs))) return false
    if (this.steppedUp) this.stepMs = Math.max(FIRST_STEP_MS, this.stepMs / 4)
    this.value = to
    this.changedAt = now
    this.triedUntil = now + tryMs
    return true
  }
}
