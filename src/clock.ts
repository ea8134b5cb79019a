// The clock: time, waits and jitter, injectable so that tests never wait.

/** Time, as the action sees it: injectable so that retry and age tests run instantly. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number
  sleep(ms: number): Promise<void>
  /** A random fraction in [0, 1) that spreads retries apart (backoff jitter). */
  jitter(): number
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) =>
    new Promise((resolve) => {
      setTimeout(resolve, ms)
    }),
  jitter: () => Math.random(),
}
