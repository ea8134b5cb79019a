// What the main step leaves for the post step (GITHUB_STATE, read back as STATE_*).
import type { Runner } from './runner.js'

const TOKEN_ID = 'revokeOnExitTokenId'
const TOKEN_NAME = 'revokeOnExitTokenName'

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
