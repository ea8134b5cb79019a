// The only module that talks to @actions/core: the Runner of a real step.
import * as core from '@actions/core'
import { tmpdir } from 'node:os'
import type { Runner } from './runner.js'
import { oneLine } from './text.js'

/** The GitHub runner, through `@actions/core`. */
export const githubRunner: Runner = {
  getInput: (name) => core.getInput(name),
  setSecret: (value) => {
    core.setSecret(value)
  },
  setFailed: (message) => {
    core.setFailed(message)
  },
  debug: (message) => {
    core.debug(message)
  },
  // core.info writes its text as it is, where a line starting with `::` is a command to
  // the runner: platform text (an id, a name) must not be able to start one. The other
  // log calls are workflow commands, which core escapes.
  info: (message) => {
    core.info(oneLine(message))
  },
  notice: (message) => {
    core.notice(message)
  },
  warning: (message) => {
    core.warning(message)
  },
  setOutput: (name, value) => {
    core.setOutput(name, value)
  },
  exportVariable: (name, value) => {
    core.exportVariable(name, value)
  },
  saveState: (name, value) => {
    core.saveState(name, value)
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
}
