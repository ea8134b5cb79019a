// The post step: deletes the token file, and revokes the token the main step created (revokeOnExit).
import { readConnection } from './inputs.js'
import { PlatformClient } from './platform/client.js'
import { UnknownTokenError } from './platform/errors.js'
import { savedTokenFile, tokenToRevoke } from './post-state.js'
import { tokenLabel } from './records.js'
import type { Runner } from './runner.js'
import { Secrets } from './secrets.js'
import { removeTokenFile } from './token-files.js'

/**
 * Runs as action.yml's `post`, with `post-if: always()`: whether the job passed or
 * failed. First it deletes the token file (writeTokenFile), which needs no request.
 * Then, with revokeOnExit, it authenticates anew, as the access token may have
 * expired, and revokes the token. A failure here is a warning naming the token, not a
 * failed job. With neither, it does nothing and says nothing.
 */
export async function runPost(runner: Runner): Promise<void> {
  deleteTokenFile(runner)
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

/** Deletes the file the main step saved (or was about to write): never any other. */
function deleteTokenFile(runner: Runner): void {
  const path = savedTokenFile(runner)
  if (path === undefined) return
  try {
    if (removeTokenFile(path, runner.tempDir())) runner.info(`Deleted the token file ${path}.`)
    else runner.debug(`The token file ${path} was gone already.`)
  } catch (error) {
    // An fs error may come from another realm (a test's): read its message, not its class.
    const why = String((error as { message?: unknown }).message ?? error).replace(/[^.]$/, '$&.')
    runner.warning(`Did not delete the token file ${path}: ${why}`)
  }
}
