// The post step: deletes the token file, and revokes the token the main step created (revokeOnExit).
import { systemClock, type Clock } from '../shared/clock.js'
import { JOB_STATUS_INPUT, readConnection } from '../inputs/read.js'
import type { PlatformClient } from '../platform/client.js'
import { messageOf } from '../shared/errors.js'
import { UnknownTokenError } from '../platform/errors.js'
import { UNKNOWN_CLOCK_MARGIN_MS } from '../platform/lost-create.js'
import { HttpTransport, type Transport } from '../platform/http.js'
import type { TokenApi } from '../platform/token-api.js'
import { searchCreated, type SearchContext } from './search.js'
import { readToRevokeOnExit, savedTokenFile, type CreateSent, type TokenToRevoke } from './state.js'
import { shortId, tokenLabel, type TokenRecord } from '../shared/records.js'
import type { Runner } from '../runner/runner.js'
import { connect, maskedSecrets } from '../runner/start.js'
import type { Connection } from '../inputs/task.js'
import { asSentence, oneLine, truncate } from '../shared/text.js'
import { removeTokenFile } from '../shared/token-files.js'
import { isUuid } from '../shared/uuid.js'

/** One thing to revoke, and how to say that it could not be. */
interface Revoking {
  run(client: PlatformClient, runner: Runner, context: SearchContext): Promise<void>
  failed(message: string, error: unknown): string
}

/**
 * Runs as action.yml's `post`, with `post-if: always()`: whether the job passed,
 * failed or was cancelled. First it deletes the token file (writeTokenFile), which needs
 * no request. Then, with revokeOnExit, it authenticates anew, as the access token may
 * have expired, and revokes the token; and looks for the token of a create whose answer
 * was lost (search.ts). A failure here is a warning, not a failed job. With neither,
 * it does nothing and says nothing. `transport` sends its requests: a fake in tests.
 */
export async function runPost(
  runner: Runner,
  clock: Clock = systemClock,
  transport: Transport = new HttpTransport(),
): Promise<void> {
  deleteTokenFile(runner)
  const owed = readToRevokeOnExit(runner)
  if (owed === undefined) return
  const which =
    owed.token !== undefined
      ? `the ${tokenLabel(owed.token)}`
      : `the token named '${truncate(oneLine(owed.search.name), 200)}' that this step created`
  if (owed.when === 'failure' && !jobFailed(runner, which)) return
  const revoking = [
    ...(owed.token === undefined ? [] : [savedToken(owed.token)]),
    ...(owed.search === undefined ? [] : [lostCreate(owed.search, owed.token?.id)]),
  ]
  const secrets = maskedSecrets(runner)
  let connection: Connection
  try {
    connection = readConnection((name) => runner.getInput(name), secrets)
  } catch (error) {
    for (const one of revoking) runner.warning(secrets.scrub(one.failed(messageOf(error), error)))
    return
  }
  // totalTimeout bounds the post step too: it must not hold the job's end for long.
  const { client, deadline, close } = connect(runner, connection, secrets, clock, transport)
  try {
    for (const one of revoking) {
      try {
        await one.run(client, runner, { clock, deadline, log: runner })
      } catch (error) {
        runner.warning(secrets.scrub(one.failed(messageOf(error), error)))
      }
    }
  } finally {
    close()
  }
}

/**
 * revokeOnExit: failure revokes only when the job did not succeed. The runner evaluates
 * the action's inputs again for the post step, so jobStatus (default `${{ job.status }}`)
 * holds the job's status now, after every other step (docs/POST-STEP.md). When it is
 * not known, the token is kept: revoking one that a successful deploy put into service
 * would cut its mediator off.
 */
function jobFailed(runner: Runner, which: string): boolean {
  const status = runner.getInput(JOB_STATUS_INPUT)
  if (status === 'failure' || status === 'cancelled') {
    const how = status === 'failure' ? 'failed' : 'was cancelled'
    runner.info(`The job ${how}: revoking ${which} (revokeOnExit: failure).`)
    return true
  }
  if (status === 'success') {
    runner.info(`The job succeeded: ${which} stays active (revokeOnExit: failure).`)
  } else {
    runner.warning(
      `Did not revoke ${which} at the end of the job: revokeOnExit is failure, and the job's status is not known (${JOB_STATUS_INPUT} is ${JSON.stringify(truncate(oneLine(status), 40))}, not success, failure or cancelled). If the job did not succeed, revoke it yourself.`,
    )
  }
  return false
}

/** Deletes the file the main step saved (or was about to write): never any other. */
function deleteTokenFile(runner: Runner): void {
  const path = savedTokenFile(runner)
  if (path === undefined) return
  try {
    if (removeTokenFile(path, runner.tempDir())) runner.info(`Deleted the token file ${path}.`)
    else runner.debug(`The token file ${path} was gone already.`)
  } catch (error) {
    runner.warning(`Did not delete the token file ${path}: ${asSentence(messageOf(error))}`)
  }
}

/** The token the main step created and named: revoked by its id. */
function savedToken(token: TokenToRevoke): Revoking {
  return {
    run: async (client, runner) => {
      await revokeOne(client, runner, token)
    },
    failed: (message, error) => revokeFailed(token, message, error),
  }
}

/**
 * A create whose token the main step may not know: its answer was lost, or the step
 * could not tell which token was its own, or it was killed; or an attempt got no answer
 * and the create was sent again, making `known`. The token it made, if any, is the
 * active one with this name created since then (lost-create.ts), looked for while it may
 * still land (search.ts): revoked when that can be told; otherwise none is revoked,
 * and a warning names the candidates.
 */
function lostCreate(create: CreateSent, known: string | undefined): Revoking {
  const { name, sentAt } = create
  let candidate: TokenRecord | undefined
  return {
    run: async (client, runner, context) => {
      runner.info(
        known === undefined
          ? `No token id was saved for this step's create of a token named '${name}': looking for the token it may have made (revokeOnExit).`
          : `An attempt of this step's create of '${name}' got no answer, and the create was sent again: looking for the token the lost attempt may have made (revokeOnExit).`,
      )
      const created = await searchCreated(client, create, known, context)
      const notRevoked = `Did not revoke a token named '${name}' at the end of the job`
      switch (created.found) {
        case 'none':
          runner.info(
            `No ${known === undefined ? '' : 'other '}active token named '${name}' was created since the step began: nothing to revoke.`,
          )
          return
        case 'several': {
          const ids = created.tokens.map(shortId).join(', ')
          runner.warning(
            `${notRevoked}: ${created.tokens.length} active tokens of that name were created since the step began, and it could not tell which one this step created: ${ids}; revoke the one you do not need.`,
          )
          return
        }
        case 'unsure':
          runner.warning(
            `${notRevoked}: the only candidate, ${shortId(created.token)}, was not revoked because ${created.why}. Revoke it if it is this step's.`,
          )
          return
        case 'one':
          candidate = created.token
          await revokeOne(client, runner, candidate)
      }
    },
    failed: (message, error) =>
      candidate === undefined
        ? `Could not look for the token named '${name}' that this step may have created: ${message} It may still be active: look for an active token named '${name}' created since ${new Date(sentAt - UNKNOWN_CLOCK_MARGIN_MS).toISOString()}, and revoke it.`
        : revokeFailed(candidate, message, error),
  }
}

async function revokeOne(client: TokenApi, runner: Runner, token: TokenToRevoke): Promise<void> {
  const which = tokenLabel(token)
  const { alreadyRevoked } = await client.revokeToken(token.id)
  runner.info(
    alreadyRevoked
      ? `The ${which} was already revoked before the end of the job.`
      : `Revoked ${which} at the end of the job (revokeOnExit).`,
  )
}

function revokeFailed(token: TokenToRevoke, message: string, error: unknown): string {
  // An id that is not a UUID is not one the action (or its tokenId input) can revoke by.
  const advice =
    error instanceof UnknownTokenError
      ? ''
      : isUuid(token.id)
        ? ` It may still be active: revoke it with operation: revoke and tokenId: ${token.id}.`
        : ' It may still be active: look for it with operation: list, and revoke it on the platform.'

  return `Could not revoke ${tokenLabel(token)} at the end of the job: ${message}${advice}`
}
