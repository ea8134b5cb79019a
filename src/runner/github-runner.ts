// The only module that talks to @actions/core: the Runner of a real step.
import * as core from '@actions/core'
import { tmpdir } from 'node:os'
import { toFile } from '../shared/errors.js'
import { neutralizeCommands, neutralizeLegacyCommands, oneLine } from '../shared/text.js'

/**
 * What the action hands to, and reads from, the runner: what the GitHub runner below does.
 * A recording fake in tests.
 */
export type Runner = typeof githubRunner

/** The signals a runner cancels a step with, in the order it sends them. */
export type CancelSignal = 'SIGINT' | 'SIGTERM'

// Every message holds platform text (names, ids, server details), and every log line
// leaves the action here: this is where none of it may become a runner command.
// setFailed, debug, notice and warning are `::` commands whose data core escapes, and the
// runner tries that syntax first; `##[` is still taken out of them, as it costs nothing
// and does not rest on the runner's order of parsing.
// core's functions are looked up at each call, not taken when this module loads: a run
// through @github/local-action (npm run local-action) stands its own in for them.
const withoutLegacyCommands =
  (command: 'setFailed' | 'debug' | 'notice' | 'warning') => (message: string) => {
    core[command](neutralizeLegacyCommands(message))
  }

// Outputs, the environment and state go to files, not to the log: left as they are.
const toRunnerFile =
  (file: string, write: 'setOutput' | 'exportVariable' | 'saveState') =>
  (name: string, value: string) => {
    toFile(file, () => {
      core[write](name, value)
    })
  }

/** The GitHub runner, through `@actions/core`. */
export const githubRunner = {
  /** One input, trimmed; `''` when unset. */
  getInput: (name: string): string => core.getInput(name),
  /**
   * The names of every input the step was given: its INPUT_* variables without the
   * prefix, as the runner spells them (upper case, spaces as `_`). The runner sets
   * INPUT_<NAME> for each input in `with:`, declared or not, and for each declared one
   * with a default. Names are compared in upper case (Windows keeps the case it was given).
   */
  inputNames: (): string[] =>
    Object.keys(process.env)
      .filter((variable) => variable.toUpperCase().startsWith('INPUT_'))
      .map((variable) => variable.slice('INPUT_'.length)),
  /** Masks a value in the log from now on, exactly as given: a changed one would not be masked. */
  setSecret: (value: string): void => {
    core.setSecret(value)
  },
  /** Ends the step as failed with this message (one error annotation). */
  setFailed: withoutLegacyCommands('setFailed'),
  debug: withoutLegacyCommands('debug'),
  // core.info writes its text as it is: a line starting with `::`, or holding `##[`
  // anywhere, is a command to the runner. One line, then neither.
  info: (message: string): void => {
    core.info(neutralizeCommands(oneLine(message)))
  },
  notice: withoutLegacyCommands('notice'),
  warning: withoutLegacyCommands('warning'),
  setOutput: toRunnerFile('GITHUB_OUTPUT', 'setOutput'),
  exportVariable: toRunnerFile('GITHUB_ENV', 'exportVariable'),
  /** Saves a value for the post step, which reads it with getState. */
  saveState: toRunnerFile('GITHUB_STATE', 'saveState'),
  getState: (name: string): string => core.getState(name),
  writeSummary: async (markdown: string): Promise<void> => {
    // Outside a runner (a local run) there is no summary file; that is not a failure.
    if (process.env.GITHUB_STEP_SUMMARY) await core.summary.addRaw(markdown, true).write()
    else core.debug('GITHUB_STEP_SUMMARY is not set; no job summary written.')
  },
  /**
   * The directory for the job's temporary files: RUNNER_TEMP, else the system's temp dir.
   * The runner empties RUNNER_TEMP at the end of each job; a local run has none.
   */
  tempDir: (): string => process.env.RUNNER_TEMP || tmpdir(),
  /**
   * Calls `listener` when the runner cancels the step: it sends SIGINT, then SIGTERM
   * 7.5 s later, then kills the step 2.5 s after that. Returns what stops listening.
   * Listening replaces Node's default, which ends the process at once and reports nothing.
   */
  onCancel: (listener: (signal: CancelSignal) => void): (() => void) => {
    const onSigint = listener.bind(undefined, 'SIGINT')
    const onSigterm = listener.bind(undefined, 'SIGTERM')
    process.on('SIGINT', onSigint).on('SIGTERM', onSigterm)
    return () => {
      process.off('SIGINT', onSigint).off('SIGTERM', onSigterm)
    }
  },
}
