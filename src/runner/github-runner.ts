// The only module that talks to @actions/core: the Runner of a real step.
import {
  type Logger,
  neutralizeCommands,
  neutralizeLegacyCommands,
  oneLine,
} from '../shared/text.js'
import * as core from '@actions/core'
import { tmpdir } from 'node:os'
import { RunnerFileError } from '../shared/errors.js'

/** Writes to one of the runner's files, naming that file if it fails. */
function toFile(file: string, write: () => void): void {
  try {
    write()
  } catch (error) {
    throw new RunnerFileError(file, error)
  }
}

/** The GitHub runner, through `@actions/core`. */
export const githubRunner: Runner = {
  getInput: (name) => core.getInput(name),
  // The runner sets INPUT_<NAME> for each input in `with:`, declared or not, and for
  // each declared one with a default. Names are compared in upper case (Windows keeps
  // the case it was given).
  inputNames: () =>
    Object.keys(process.env)
      .filter((variable) => variable.toUpperCase().startsWith('INPUT_'))
      .map((variable) => variable.slice('INPUT_'.length)),
  // Registered exactly as given: a changed value would not be the one masked.
  setSecret: (value) => {
    core.setSecret(value)
  },
  // Every message below holds platform text (names, ids, server details), and every log
  // line leaves the action here: this is where none of it may become a runner command.
  // setFailed, debug, notice and warning are `::` commands whose data core escapes, and
  // the runner tries that syntax first; `##[` is still taken out of them, as it costs
  // nothing and does not rest on the runner's order of parsing.
  setFailed: (message) => {
    core.setFailed(neutralizeLegacyCommands(message))
  },
  debug: (message) => {
    core.debug(neutralizeLegacyCommands(message))
  },
  // core.info writes its text as it is: a line starting with `::`, or holding `##[`
  // anywhere, is a command to the runner. One line, then neither.
  info: (message) => {
    core.info(neutralizeCommands(oneLine(message)))
  },
  notice: (message) => {
    core.notice(neutralizeLegacyCommands(message))
  },
  warning: (message) => {
    core.warning(neutralizeLegacyCommands(message))
  },
  // Outputs, the environment and state go to files, not to the log: left as they are.
  // A file that cannot be written (a full disk, a file gone) is named in the failure.
  setOutput: (name, value) => {
    toFile('GITHUB_OUTPUT', () => {
      core.setOutput(name, value)
    })
  },
  exportVariable: (name, value) => {
    toFile('GITHUB_ENV', () => {
      core.exportVariable(name, value)
    })
  },
  saveState: (name, value) => {
    toFile('GITHUB_STATE', () => {
      core.saveState(name, value)
    })
  },
  getState: (name) => core.getState(name),
  writeSummary: async (markdown) => {
    // Outside a runner (a local run) there is no summary file; that is not a failure.
    if (!process.env.GITHUB_STEP_SUMMARY) {
      core.debug('GITHUB_STEP_SUMMARY is not set; no job summary written.')
      return
    }
    await core.summary.addRaw(markdown, true).write()
  },
  // The runner empties RUNNER_TEMP at the end of each job; a local run has none.
  tempDir: () => process.env.RUNNER_TEMP || tmpdir(),
  // Listening replaces Node's default, which ends the process at once and reports nothing.
  onCancel: (listener) => {
    const signals: CancelSignal[] = ['SIGINT', 'SIGTERM']
    const handlers = signals.map((signal) => {
      const handler = () => {
        listener(signal)
      }
      process.on(signal, handler)
      return [signal, handler] as const
    })
    return () => {
      for (const [signal, handler] of handlers) process.off(signal, handler)
    }
  },
}

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
