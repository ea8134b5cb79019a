/** Time, as the action sees it: injectable so that retry and age tests run instantly. */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number
  sleep(ms: number): Promise<void>
  /** A number in [0, 1), for jitter. */
  random(): number
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) =>
    new Promise((resolve) => {
      setTimeout(resolve, ms)
    }),
  random: () => Math.random(),
}
