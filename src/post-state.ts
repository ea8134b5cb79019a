// What the main step leaves for the post step (GITHUB_STATE, read back as STATE_*).
import type { TokenRecord } from './records.js'
import type { RevokeOnExit } from './task.js'
import type { Runner } from './runner.js'

const TOKEN_ID = 'revokeOnExitTokenId'
const TOKEN_NAME = 'revokeOnExitTokenName'
const CREATE_SENT_AT = 'revokeOnExitSince'
const WHEN = 'revokeOnExitWhen'
const TOKEN_FILE = 'tokenFile'

/** A token the post step is to revoke at the end of the job. */
export type TokenToRevoke = Pick<TokenRecord, 'id' | 'name'>

/** A create sent with revokeOnExit: the post step looks for its token if its id never came. */
export interface CreateSent {
  name: string
  /** When the create was sent, in ms since the epoch (the runner's clock). */
  sentAt: number
  /** revokeOnExit: at the end of every job, or only one that did not succeed. */
  when: Exclude<RevokeOnExit, 'never'>
}

/**
 * Main step, just before a create with revokeOnExit is sent: if its answer is lost
 * (or the step is killed), the post step still knows to look for the token.
 */
export function saveCreateSent(runner: Runner, create: CreateSent): void {
  runner.saveState(TOKEN_NAME, create.name)
  runner.saveState(CREATE_SENT_AT, String(create.sentAt))
  runner.saveState(WHEN, create.when)
}

/** Main step: marks a token this step created for revoking at the end of the job. */
export function saveTokenToRevoke(runner: Runner, token: TokenToRevoke): void {
  runner.saveState(TOKEN_ID, token.id)
  runner.saveState(TOKEN_NAME, token.name ?? '')
}

/**
 * Post step: what is left to revoke. The token, when the main step learnt its id;
 * else the create sent, when one was; else undefined (no revokeOnExit, a reused
 * token: nothing is ever created then, so nothing is saved).
 */
export function leftToRevoke(
  runner: Runner,
): (({ token: TokenToRevoke } | { create: CreateSent }) & Pick<CreateSent, 'when'>) | undefined {
  const id = runner.getState(TOKEN_ID)
  const name = runner.getState(TOKEN_NAME)
  // Anything but `failure` revokes: a token saved to revoke is never kept by a misread state.
  const when = runner.getState(WHEN) === 'failure' ? 'failure' : 'always'
  if (id) return { token: name ? { id, name } : { id }, when }
  const sentAt = Number(runner.getState(CREATE_SENT_AT) || NaN)
  return name && Number.isSafeInteger(sentAt) ? { create: { name, sentAt, when }, when } : undefined
}

/** Main step, before the file is written: the post step deletes it whatever happens next. */
export function saveTokenFile(runner: Runner, path: string): void {
  runner.saveState(TOKEN_FILE, path)
}

/** Post step: the token file the main step was about to write, or undefined. */
export function savedTokenFile(runner: Runner): string | undefined {
  return runner.getState(TOKEN_FILE) || undefined
}
