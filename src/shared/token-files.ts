// The files the action leaves under RUNNER_TEMP: the token value (tokenFile) and a list's records (tokensFile).
import { randomBytes } from 'node:crypto'
import { closeSync, fchmodSync, lstatSync, openSync, unlinkSync, writeFileSync } from 'node:fs'
import { basename, join, resolve } from 'node:path'

// 128 random bits: another process cannot guess the name to plant a file or a link there
// first (and `wx` refuses to write through one if it does).
const TOKEN_FILE_NAME = /^gateway-token-[0-9a-f]{32}$/
const randomName = (prefix: string, suffix = '') =>
  `${prefix}${randomBytes(16).toString('hex')}${suffix}`

/** A new path for the token value: in `dir`, with a name no one can guess. Nothing is written. */
export function newTokenFilePath(dir: string): string {
  return join(resolve(dir), randomName('gateway-token-'))
}

/**
 * Writes the token value to `path`, which must not exist yet (`wx`: never through a file or
 * a link that is already there): exactly the value, no newline, readable by the runner's
 * user alone. The mode given to open is cut by the umask, which can only take bits away;
 * fchmod then makes it exactly 0600. Returns the path.
 */
export function writeTokenFile(path: string, value: string): string {
  const fd = openSync(path, 'wx', 0o600)
  try {
    fchmodSync(fd, 0o600)
    writeFileSync(fd, value)
  } finally {
    closeSync(fd)
  }
  return path
}

/**
 * Writes a list's JSON to a new file in `dir`, as the token value is written, and returns
 * its path. The records are not secret (no tokenValue), but they name people
 * (createdByEmail): 0600 too.
 */
export function writeTokensFile(dir: string, json: string): string {
  return writeTokenFile(join(resolve(dir), randomName('gateway-tokens-', '.json')), json)
}

/**
 * Deletes the token file the main step wrote, and nothing else: the path must be one
 * newTokenFilePath could have made in `dir`, and still a plain file (not a link or a
 * folder put there since). Returns false when it is gone already; throws, saying why,
 * when it is not ours to delete.
 */
export function removeTokenFile(path: string, dir: string): boolean {
  if (!TOKEN_FILE_NAME.test(basename(path)) || path !== join(resolve(dir), basename(path)))
    throw new Error(`it is not a token file of this action in ${resolve(dir)}.`)
  try {
    if (!lstatSync(path).isFile()) throw new Error('it is no longer a plain file.')
    unlinkSync(path)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false
    throw error
  }
}
