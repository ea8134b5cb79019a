// The post step (revokeOnExit): revokes, at the end of the job, the token the main step created.
import { readConnection } from './inputs.js'
import { PlatformClient } from './platform/client.js'
import { UnknownTokenError } from './platform/errors.js'
import { tokenToRevoke } from './post-state.js'
import { tokenLabel } from './records.js'
import type { Runner } from './runner.js'
import { Secrets } from './secrets.js'

/**
 * Runs as action.yml's `post`, with `post-if: always()`: whether the job passed or
 * failed. It authenticates anew, as the access token may have expired. A failure here
 * is a warning naming the token, not a failed job. Without revokeOnExit it does
 * nothing and says nothing.
 */
export async function runPost(runner: Runner): Promise<void> {
  const token = tokenToRevoke(runner)
  if (token === undefined) return
  const which = tokenLabel(token)
  const secrets = new Secrets((value) => {
    runner.setSecret(value)
  })
  try {
    const connection = readConnection((name) => runner.getInput(name), secrets)
    const client = new PlatformClient({ ...connection, secrets, log: runner })
    try {
      const { alreadyRevoked } = await client.revokeToken(token.id)
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
        : ` It may still be active: revoke it with operation: revoke and tokenId: ${token.id}.`
    runner.warning(
      secrets.scrub(`Could not revoke ${which} at the end of the job: ${message}${advice}`),
    )
  }
}
