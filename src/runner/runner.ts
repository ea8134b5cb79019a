// The seam to the GitHub runner: everything the action asks of it, as one interface (github-runner.ts is the real one).
import type { Logger } from '../shared/text.js'

/** What the action hands to, and reads from, the runner. A recording fake in tests. */
export interface Runner extends Logger {
  /** One input, trimmed; `''` when unset. */
  getInput(name: string): string
  /**
   * The names of every input the step was given: its INPUT_* variables without the
   * prefix, as the runner spells them (upper case, spaces as `_`).
   */
  inputNames(): string[]
  /** Masks a value in the log from now on. */
  setSecret(value: string): void
  /** Ends the step as failed with this message (one error annotation). */
  setFailed(message: string): void
  setOutput(name: string, value: string): void
  exportVariable(name: string, value: string): void
  /** Saves a value for the post step, which reads it with getState. */
  saveState(name: string, value: string): void
  getState(name: string): string
  writeSummary(markdown: string): Promise<void>
  /** The directory for the job's temporary files: RUNNER_TEMP, else the system's temp dir. */
  tempDir(): string
  /**
   * Calls `listener` when the runner cancels the step: it sends SIGINT, then SIGTERM
   * 7.5 s later, then kills the step 2.5 s after that. Returns what stops listening.
   */
  onCancel(listener: (signal: CancelSignal) => void): () => void
}

/** The signals a runner cancels a step with, in the order it sends them. */
export type CancelSignal = 'SIGINT' | 'SIGTERM'
