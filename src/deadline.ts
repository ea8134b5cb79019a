// The step's time budget (totalTimeout): how much is left, so that a step stops cleanly before it is killed.
import type { Clock } from './clock.js'

export class Deadline {
  private readonly endsAt: number

  /** @param totalMs the whole budget; 0 means no limit. */
  constructor(
    private readonly clock: Clock,
    readonly totalMs: number,
  ) {
    this.endsAt = totalMs > 0 ? clock.now() + totalMs : Infinity
  }

  /** Milliseconds left; Infinity without a limit. */
  remaining(): number {
    return Math.max(0, this.endsAt - this.clock.now())
  }

  expired(): boolean {
    return this.remaining() === 0
  }

  /** `totalTimeout (900 s)`, for messages. */
  describe(): string {
    return `totalTimeout (${Math.round(this.totalMs / 1000)} s)`
  }
}
