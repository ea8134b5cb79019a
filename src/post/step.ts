// The post step: deletes the token file, and acts on what the main step recorded of its create (revokeOnExit).
import { type Clock, type Deadline, systemClock } from '../shared/time.js'
import { type Connection, JOB_STATUS_INPUT, readConnection } from '../inputs/read.js'
import type { PlatformClient } from '../platform/client.js'
import { messageOf, UnknownTokenError } from '../shared/errors.js'
import { HttpTransport, type Transport } from '../platform/http.js'
import { lookForSentence, mustSearch, type PlatformTime } from '../platform/lost-create.js'
import { searchCreated } from './search.js'
import { readSavedCreate, savedTokenFile, type SavedCreate } from './state.js'
import { isUuid, quoteName, shortId, tokenLabel } from '../shared/records.js'
import { githubRunner, type Runner } from '../runner/github-runner.js'
import { connect, maskedSecrets } from '../runner/start.js'
import { asSentence, oneLine, truncate } from '../shared/text.js'
import { removeTokenFile } from '../shared/token-files.js'

/**
 * Runs as action.yml's `post`, with `post-if: always()`: whether the job passed, failed
 * or was cancelled. Named and defaulted like main.ts's, so that `npm run local-action`
 * (@github/local-action, which imports it and calls `run()`) runs it too. First it deletes
 * the token file (writeTokenFile), which needs no request. Then, with revokeOnExit, it acts
 * on what the main step saved of its create: nothing to do (no create left, or it was
 * refused: no request, one line), the token to revoke by its id, or a create whose outcome
 * is unknown, looked for in the list (lost-create.ts). A failure here is a warning, never a
 * failed job. `transport` sends its requests: a fake in tests.
 */
export async function run(
  runner: Runner = githubRunner,
  clock: Clock = systemClock,
  transport: Transport = new HttpTransport(),
): Promise<void> {
  deleteTokenFile(runner)
  const create = readSavedCreate(runner)
  const nothing = 'nothing to revoke at the end of the job (revokeOnExit).'
  if (create === undefined) {
    // Said only when the step was a create with revokeOnExit.
    const revokeOnExit = !/^(false|)$/i.test(runner.getInput('revokeOnExit'))
    if (revokeOnExit && runner.getInput('operation') === 'create') {
      runner.info(
        `This step created no token (no create was sent, or an existing token was reused): ${nothing}`,
      )
    }
    return
  }
  const { id, name } = create
  const search = mustSearch(create)
  if (id === undefined && !search) {
    const why = create.written
      ? 'the platform refused it, or answered with a token that was not its own (see the main step)'
      : 'its request never left the runner whole (it failed before that: see the main step)'
    runner.info(`This step's create of ${quoteName(name)} made no token, as ${why}: ${nothing}`)
    return
  }
  if (create.when === 'failure' && !jobFailed(runner, create)) return

  const secrets = maskedSecrets(runner)
  let connection: Connection
  try {
    connection = readConnection((input) => runner.getInput(input), secrets)
  } catch (error) {
    // The inputs' messages quote what was given, which may hold the secret.
    if (id !== undefined) runner.warning(secrets.scrub(revokeFailed(id, name, error)))
    if (search) runner.warning(secrets.scrub(searchFailed(create, error, () => undefined)))
    return
  }
  // The most the post step takes when totalTimeout allows more: it holds the end of the job,
  // and a platform that does not answer within it will not answer in time to matter.
  const options = { transport, limit: { ms: 120_000, name: "the post step's limit" } }
  const { client, deadline, close } = connect(runner, connection, secrets, clock, options)
  try {
    if (id !== undefined) await revokeAtEnd(client, runner, id, name)
    const context = { clock, deadline, log: runner }
    if (search) await searchAndRevoke(client, runner, create, context, connection.totalTimeoutMs)
  } finally {
    close()
  }
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
  context: { clock: Clock; deadline: Deadline; log: Runner },
  totalMs: number,
): Promise<void> {
  const { id } = create
  const name = quoteName(create.name)
  runner.info(
    id === undefined
      ? `No answer said what became of this step's create of ${name}: looking for the token it may have made (revokeOnExit).`
      : `An attempt of this step's create of ${name} got no answer, and the create was sent again: looking for the token the lost attempt may have made (revokeOnExit).`,
  )
  const created = await searchCreated(client, create, context, totalMs).catch((error: unknown) => {
    runner.warning(searchFailed(create, error, client.platformTime))
  })
  if (created === undefined) return
  if (created.found === 'one') {
    await revokeAtEnd(client, runner, created.token.id, create.name)
  } else if (created.found === 'none' && created.landed === true) {
    const other = id === undefined ? '' : 'other '
    runner.info(
      `No ${other}active token named ${name} was created since the step began: nothing to revoke.`,
    )
  } else {
    const why =
      created.found === 'none'
        ? `none was in the list, and the create may still land. ${lookForSentence(create, client.platformTime, id)}`
        : created.found === 'several'
          ? `${created.tokens.length} active tokens of that name were created since the step began, and it could not tell which one this step created: ${created.tokens.map(shortId).join(', ')}; revoke the one you do not need.`
          : `the only candidate, ${shortId(created.token)}, was not revoked because ${created.why}. Revoke it if it is this step's.`
    runner.warning(`Did not revoke a token named ${name} at the end of the job: ${why}`)
  }
}

/**
 * revokeOnExit: failure revokes only when the job did not succeed. The runner evaluates
 * the action's inputs again for the post step, so jobStatus (default `${{ job.status }}`)
 * holds the job's status now, after every other step (docs/POST-STEP.md). When it is
 * not known, the token is kept: revoking one that a successful deploy put into service
 * would cut its mediator off. A cancel counts as a failure, also one that came after the
 * deploy had finished: the line then says what that leaves (README, "Rotate").
 */
function jobFailed(runner: Runner, { id, name }: SavedCreate): boolean {
  const which =
    id === undefined
      ? `the token named ${quoteName(name)} that this step may have created`
      : `the ${tokenLabel({ id, name })}`
  const status = runner.getInput(JOB_STATUS_INPUT)
  const how = status === 'failure' ? 'failed' : status === 'cancelled' ? 'was cancelled' : undefined
  const cancelled =
    ' If a deploy had already put it in service, that mediator is now cut off, and the older tokens are still active: roll the deploy back or run it again.'
  if (how !== undefined)
    runner.info(
      `The job ${how}: revoking ${which} (revokeOnExit: failure).${status === 'cancelled' ? cancelled : ''}`,
    )
  else if (status === 'success')
    runner.info(`The job succeeded: ${which} stays active (revokeOnExit: failure).`)
  else {
    runner.warning(
      `Did not revoke ${which} at the end of the job: revokeOnExit is failure, and the job's status is not known (${JOB_STATUS_INPUT} is ${JSON.stringify(truncate(oneLine(status), 40))}, not success, failure or cancelled). If the job did not succeed, revoke it yourself.`,
    )
  }
  return how !== undefined
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

/** A token of this step's, revoked by its id at the end of the job; a failure is a warning. */
async function revokeAtEnd(client: PlatformClient, runner: Runner, id: string, name: string) {
  const label = tokenLabel({ id, name })
  try {
    const { alreadyRevoked } = await client.revokeToken(id)
    if (alreadyRevoked) runner.info(`The ${label} was already revoked before the end of the job.`)
    else runner.info(`Revoked ${label} at the end of the job (revokeOnExit).`)
  } catch (error) {
    runner.warning(revokeFailed(id, name, error))
  }
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

function searchFailed(create: SavedCreate, error: unknown, platformTime: PlatformTime): string {
  return `Could not look for the token named ${quoteName(create.name)} that this step may have created: ${asSentence(messageOf(error))} ${lookForSentence(create, platformTime, create.id)}`
}
