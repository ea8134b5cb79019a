import * as core from '@actions/core'
import { readConnection } from './inputs.js'
import { PlatformClient, UnknownTokenError } from './platform/client.js'
import { tokenLabel, type TokenRecord } from './records.js'
import { githubRunner, type Runner } from './runner.js'
import { Secrets } from './secrets.js'

// What the main step leaves for the post step (GITHUB_STATE, read back as STATE_*).
const TOKEN_ID = 'revokeOnExitTokenId'
const TOKEN_NAME = 'revokeOnExitTokenName'

/** Main step: marks a token this step created for revoking at the end of the job. */
export function revokeAtExit(runner: Runner, token: TokenRecord): void {
  runner.saveState(TOKEN_ID, token.id)
  runner.saveState(TOKEN_NAME, token.name)
}

/**
 * The post step (action.yml `post`, `post-if: always()`): revokes the token the main
 * step created with revokeOnExit, whether the job passed or failed. It authenticates
 * anew, as the access token may have expired. A failure here is a warning naming the
 * token, not a failed job. Without revokeOnExit it does nothing and says nothing.
 */
export async function runPost(runner: Runner = githubRunner): Promise<void> {
  const tokenId = runner.getState(TOKEN_ID)
  if (!tokenId) return
  const which = tokenLabel({ id: tokenId, name: runner.getState(TOKEN_NAME) })
  const secrets = new Secrets((value) => {
    core.setSecret(value)
  })
  try {
    const connection = readConnection((name) => core.getInput(name), secrets)
    const client = new PlatformClient({ ...connection, secrets, log: runner })
    try {
      const { alreadyRevoked } = await client.revokeToken(tokenId)
      runner.info(
        alreadyRevoked
          ? `The ${which} was already revoked before the end of the job.`
          : `Revoked ${which} at the end of the job (revokeOnExit).`,
      )
    } finally {
      client.close()
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    const advice =
      error instanceof UnknownTokenError
        ? ''
        : ` It may still be active: revoke it with operation: revoke and tokenId: ${tokenId}.`
    runner.warning(
      secrets.scrub(`Could not revoke ${which} at the end of the job: ${message}${advice}`),
    )
  }
}
