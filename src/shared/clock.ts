// The clock: time, waits and jitter, injectable so that tests never wait.

/** Time, as the action sees it: injectable so that retry and age tests run instantly. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number
  /**
   * Waits `ms`, or until `signal` aborts, whichever comes first; never rejects. A wait cut
   * short leaves no timer behind, so that a step can end as soon as its work is done.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void>
  /** A random fraction in [0, 1) that spreads retries apart (backoff jitter). */
  jitter(): number
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      if (signal?.aborted === true) {
        resolve()
        return
      }
      const done = () => {
        clearTimeout(timer)
        signal?.removeEventListener('abort', done)
        resolve()
      }
      const timer = setTimeout(done, ms)
      signal?.addEventListener('abort', done, { once: true })
    }),
  jitter: () => Math.random(),
}
