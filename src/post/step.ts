// The post step: deletes the token file, and acts on what the main step recorded of its create (revokeOnExit).
import { type Clock, type Deadline, systemClock } from '../shared/time.js'
import { type Connection, JOB_STATUS_INPUT, readConnection } from '../inputs/read.js'
import type { PlatformClient } from '../platform/client.js'
import { messageOf, UnknownTokenError } from '../shared/errors.js'
import { HttpTransport, type Transport } from '../platform/http.js'
import { lookForSentence, mustSearch } from '../platform/lost-create.js'
import { searchCreated } from './search.js'
import { readSavedCreate, savedTokenFile, type SavedCreate } from './state.js'
import { isUuid, quoteName, shortId, tokenLabel, type TokenRecord } from '../shared/records.js'
import { githubRunner, type Runner } from '../runner/github-runner.js'
import { connect, maskedSecrets } from '../runner/start.js'
import { asSentence, oneLine, truncate } from '../shared/text.js'
import { removeTokenFile } from '../shared/token-files.js'

/**
 * The most the post step takes when totalTimeout allows more: it holds the end of the job,
 * and a platform that does not answer within it will not answer in time to matter.
 */
export const POST_STEP_LIMIT = { ms: 120_000, name: "the post step's limit" }

/**
 * Runs as action.yml's `post`, with `post-if: always()`: whether the job passed, failed
 * or was cancelled. Named and defaulted like main.ts's, so that `npm run local-action`
 * (@github/local-action, which imports it and calls `run()`) runs it too. First it deletes the token file (writeTokenFile), which needs no
 * request. Then, with revokeOnExit, it acts on what the main step saved of its create:
 * nothing to do (no create left, or it was refused: no request, one line), the token to
 * revoke by its id, or a create whose outcome is unknown, looked for in the list
 * (lost-create.ts). A failure here is a warning, never a failed job. `transport` sends its
 * requests: a fake in tests.
 */
export async function run(
  runner: Runner = githubRunner,
  clock: Clock = systemClock,
  transport: Transport = new HttpTransport(),
): Promise<void> {
  deleteTokenFile(runner)
  const create = readSavedCreate(runner)
  if (create === undefined) {
    sayNoCreate(runner)
    return
  }
  const search = mustSearch(create)
  if (create.id === undefined && !search) {
    runner.info(nothingCreated(create))
    return
  }
  const which =
    create.id !== undefined
      ? `the ${tokenLabel({ id: create.id, name: create.name })}`
      : `the token named ${quoteName(create.name)} that this step may have created`
  if (create.when === 'failure' && !jobFailed(runner, which)) return

  const secrets = maskedSecrets(runner)
  let connection: Connection
  try {
    connection = readConnection((name) => runner.getInput(name), secrets)
  } catch (error) {
    // The inputs' messages quote what was given, which may hold the secret.
    if (create.id !== undefined)
      runner.warning(secrets.scrub(revokeFailed(create.id, create.name, error)))
    if (search) runner.warning(secrets.scrub(searchFailed(create, error)))
    return
  }
  const options = { transport, limit: POST_STEP_LIMIT }
  const { client, deadline, close } = connect(runner, connection, secrets, clock, options)
  try {
    if (create.id !== undefined) await revokeSaved(client, runner, create.id, create.name)
    if (search) await searchAndRevoke(client, runner, create, { clock, deadline, connection })
  } finally {
    close()
  }
}

/** With no create saved: one line, when the step was a create with revokeOnExit. */
function sayNoCreate(runner: Runner): void {
  if (runner.getInput('operation') !== 'create') return
  if (/^(false|)$/i.test(runner.getInput('revokeOnExit'))) return
  runner.info(
    'This step created no token (no create was sent, or an existing token was reused): nothing to revoke at the end of the job (revokeOnExit).',
  )
}

/** Why a create that left no token needs nothing from the post step. */
function nothingCreated(create: SavedCreate): string {
  const why = create.written
    ? 'the platform refused it, or answered with a token that was not its own (see the main step)'
    : 'its request never left the runner whole (it failed before that: see the main step)'
  return `This step's create of ${quoteName(create.name)} made no token, as ${why}: nothing to revoke at the end of the job (revokeOnExit).`
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

/** The token the main step created and named: revoked by its id; a failure is a warning. */
async function revokeSaved(
  client: PlatformClient,
  runner: Runner,
  id: string,
  name: string,
): Promise<void> {
  try {
    await revokeAtEnd(client, runner, { id, name })
  } catch (error) {
    runner.warning(revokeFailed(id, name, error))
  }
}

async function revokeAtEnd(
  client: PlatformClient,
  runner: Runner,
  token: Pick<TokenRecord, 'id' | 'name'>,
): Promise<void> {
  const { alreadyRevoked } = await client.revokeToken(token.id)
  runner.info(
    alreadyRevoked
      ? `The ${tokenLabel(token)} was already revoked before the end of the job.`
      : `Revoked ${tokenLabel(token)} at the end of the job (revokeOnExit).`,
  )
}

function revokeFailed(id: string, name: string, error: unknown): string {
  // An id that is not a UUID is not one the action (or its tokenId input) can revoke by.
  const advice =
    error instanceof UnknownTokenError
      ? ''
      : isUuid(id)
        ? ` It may still be active: revoke it with operation: revoke and tokenId: ${id}.`
        : ' It may still be active: look for it with operation: list, and revoke it on the platform.'
  return `Could not revoke ${tokenLabel({ id, name })} at the end of the job: ${messageOf(error)}${advice}`
}

/**
 * A create whose outcome is unknown: its answer was lost, or an attempt's was and the
 * create was sent again. The token it made, if any, is looked for in the list
 * (searchCreated): revoked when exactly one can be told; otherwise none is, and a warning
 * says where it would be.
 */
async function searchAndRevoke(
  client: PlatformClient,
  runner: Runner,
  create: SavedCreate,
  { clock, deadline, connection }: { clock: Clock; deadline: Deadline; connection: Connection },
): Promise<void> {
  const name = quoteName(create.name)
  runner.info(
    create.id === undefined
      ? `No answer said what became of this step's create of ${name}: looking for the token it may have made (revokeOnExit).`
      : `An attempt of this step's create of ${name} got no answer, and the create was sent again: looking for the token the lost attempt may have made (revokeOnExit).`,
  )
  const notRevoked = `Did not revoke a token named ${name} at the end of the job`
  let candidate: TokenRecord | undefined
  try {
    const context = { clock, deadline, log: runner }
    const created = await searchCreated(client, create, context, connection.totalTimeoutMs)
    switch (created.found) {
      case 'none':
        if (created.landed === true) {
          runner.info(
            `No ${create.id === undefined ? '' : 'other '}active token named ${name} was created since the step began: nothing to revoke.`,
          )
        } else {
          runner.warning(
            `${notRevoked}: none was in the list, and the create may still land. ${lookForSentence(create, (at) => client.platformTime(at), create.id)}`,
          )
        }
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
        await revokeAtEnd(client, runner, candidate)
    }
  } catch (error) {
    runner.warning(
      candidate === undefined
        ? searchFailed(create, error, (at) => client.platformTime(at))
        : revokeFailed(candidate.id, create.name, error),
    )
  }
}

function searchFailed(
  create: SavedCreate,
  error: unknown,
  platformTime: (at: number) => number | undefined = () => undefined,
): string {
  return `Could not look for the token named ${quoteName(create.name)} that this step may have created: ${asSentence(messageOf(error))} ${lookForSentence(create, platformTime, create.id)}`
}
