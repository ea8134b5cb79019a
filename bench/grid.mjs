// @ts-check
// `npm run bench -- --grid`: bench/simulated-grid.ts, run by jest (the simulation is TypeScript), with its own configuration.
import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { unitProject } from '../jest.config.js'
import { ROOT } from '../test/support/runner.mjs'

/**
 * Runs the grid of simulated cleanups and prints its summary; `--grid-before=FILE` compares
 * with an earlier run's reports/grid.json. Exits with jest's status: a token left fails it.
 */
export function grid() {
  const before = process.argv.find((arg) => arg.startsWith('--grid-before='))
  const config = {
    ...unitProject,
    rootDir: ROOT,
    displayName: 'grid',
    roots: ['<rootDir>/bench'],
    testMatch: ['**/bench/simulated-grid.ts'],
  }
  const jest = createRequire(import.meta.url).resolve('jest/bin/jest')
  const { status } = spawnSync(
    process.execPath,
    [jest, '--config', JSON.stringify(config), '--coverage=false'],
    {
      cwd: ROOT,
      stdio: 'inherit',
      env: {
        ...process.env,
        NODE_OPTIONS: '--experimental-vm-modules',
        NODE_NO_WARNINGS: '1',
        ...(before && { GRID_BEFORE: before.slice('--grid-before='.length) }),
      },
    },
  )
  return status ?? 1
}
