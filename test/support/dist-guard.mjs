// @ts-check
/**
 * Global setup of the end-to-end tests (jest.config.js): they run dist/, so they stop
 * before the first test when dist/ was not built from the current sources.
 */
import { fileURLToPath } from 'node:url'
import { checkStamp } from '../../scripts/dist-stamp.mjs'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/**
 * Jest calls it with its global and project configs; the project's rootDir is the
 * repository.
 * @param {unknown} [_globalConfig]
 * @param {{ rootDir?: string }} [projectConfig]
 */
export default function distGuard(_globalConfig, projectConfig) {
  const problem = checkStamp(projectConfig?.rootDir ?? ROOT)
  if (problem !== undefined) throw new Error(problem)
}
