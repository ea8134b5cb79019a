// What the main step leaves for the post step (GITHUB_STATE, read back as STATE_*).
import type { Runner } from './runner.js'

const TOKEN_ID = 'revokeOnExitTokenId'
const TOKEN_NAME = 'revokeOnExitTokenName'
const TOKEN_FILE = 'tokenFile'

/** A token the post step is to revoke at the end of the job. */
export interface TokenToRevoke {
  id: string
  name: string
}

/** Main step: marks a token this step created for revoking at the end of the job. */
export function saveTokenToRevoke(runner: Runner, token: TokenToRevoke): void {
  runner.saveState(TOKEN_ID, token.id)
  runner.saveState(TOKEN_NAME, token.name)
}

/** Post step: the token to revoke, or undefined when the main step marked none. */
export function tokenToRevoke(runner: Runner): TokenToRevoke | undefined {
  const id = runner.getState(TOKEN_ID)
  return id ? { id, name: runner.getState(TOKEN_NAME) } : undefined
}

/** Main step, before the file is written: the post step deletes it whatever happens next. */
export function saveTokenFile(runner: Runner, path: string): void {
  runner.saveState(TOKEN_FILE, path)
}

/** Post step: the token file the main step was about to write, or undefined. */
export function savedTokenFile(runner: Runner): string | undefined {
  return runner.getState(TOKEN_FILE) || undefined
}
