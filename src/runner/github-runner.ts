// The only module that talks to @actions/core: the Runner of a real step.
import * as core from '@actions/core'
import { realpathSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { fileURLToPath } from 'node:url'
import { toFile } from '../shared/errors.js'
import { listenForCancel, type Runner } from './start.js'
import { neutralizeCommands, neutralizeLegacyCommands, oneLine } from '../shared/text.js'

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
export const githubRunner: Runner = {
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
  /** Calls `listener` when the runner cancels the step (listenForCancel). */
  onCancel: listenForCancel,
}

/**
 * Starts a step of the bundle on the GitHub runner when `entry` (the entry module's
 * import.meta.url) is the script node was given: imported, as `npm run local-action` does,
 * it starts nothing. Where no runner is (no GITHUB_OUTPUT or GITHUB_STATE), it refuses
 * before anything is read: @actions/core would print outputs and masks on stdout there.
 */
export async function startStep(entry: string, step: () => Promise<unknown>): Promise<void> {
  const script = process.argv[1]
  const real = (path: string) => realpathSync.native(path)
  if (script === undefined || real(script) !== real(fileURLToPath(entry))) return
  if (process.env.GITHUB_OUTPUT && process.env.GITHUB_STATE) {
    await step()
    return
  }
  process.stderr.write(
    'This is a GitHub Action: it runs only as a step of a GitHub Actions job (GITHUB_OUTPUT and GITHUB_STATE are not set). Elsewhere, use the command line: npx gateway-token --help.\n',
  )
  process.exitCode = 1
}
