import * as core from '@actions/core'
import type { Logger } from './logger.js'
import { oneLine } from './text.js'

/** What the action hands to the runner. `@actions/core` in the action, a recorder in tests. */
export interface Runner extends Logger {
  setOutput(name: string, value: string): void
  exportVariable(name: string, value: string): void
  /** Saves a value for the post step, which reads it with getState. */
  saveState(name: string, value: string): void
  getState(name: string): string
  writeSummary(markdown: string): Promise<void>
}

/** The GitHub runner, through `@actions/core`. */
export const githubRunner: Runner = {
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
}
