// The post step: deletes the token file, and acts on what the main step recorded of its create (revokeOnExit): revokes its token, or searches for one whose fate is unknown.
import { type Clock, type Deadline, systemClock } from '../shared/time.js'
import { type Connection, JOB_STATUS_INPUT, readConnection } from '../inputs/read.js'
import { readRevokeOnExit } from '../inputs/parsers.js'
import type { PlatformClient, TokenApi } from '../platform/client.js'
import { messageOf, RequestError, UnknownTokenError } from '../shared/errors.js'
import { HttpTransport, type Transport } from '../platform/http.js'
import { findCreated, LATE_CREATE_MS, lookForSentence } from '../platform/create-life.js'
import type { CreatedToken, CreateRecord } from '../platform/create-life.js'
import { readSavedCreate, savedTokenFile } from './state.js'
import { isUuid, quoteName, shortId, tokenLabel } from '../shared/records.js'
import { connect, type Runner } from '../runner/start.js'
import { Secrets } from '../shared/secrets.js'
import { asSentence, type Logger, quote } from '../shared/text.js'
import { removeTokenFile } from '../shared/token-files.js'

/** The most the post step takes when totalTimeout allows more: it holds the end of the job. */
const POST_STEP_BOUND = { ms: 120_000, name: "the post step's limit" }
/** How often the list is looked at again while a token of a lost create is searched for. */
const LOOK_AGAIN_MS = 2_000

/**
 * Runs as action.yml's `post`, with `post-if: always()`, on the GitHub runner: whether the
 * job passed, failed or was cancelled; and in `gateway-token exec` on a terminal's, when its
 * COMMAND has ended (the job's status is then COMMAND's). First it deletes
 * the token file (writeTokenFile), which needs no request. Then, with revokeOnExit, it acts
 * on the create's record (create-life.ts): nothing was made (no request, one line), its
 * token to revoke by its id, or one whose fate is unknown, searched for; or, given `kept`
 * (exec's `--revoke-on-exit never` once COMMAND ran), it keeps the token and says that line.
 * A failure here is a warning, never a failed job. `transport` sends its requests: a fake in
 * tests.
 */
export async function run(
  runner: Runner,
  clock: Clock = systemClock,
  transport: Transport = new HttpTransport(),
  kept?: string,
): Promise<void> {
  deleteTokenFile(runner)
  const create = readSavedCreate(runner)
  const nothing = 'nothing to revoke at the end of the job (revokeOnExit).'
  if (create === undefined) {
    // Said only when the step was a create with revokeOnExit, read as the main step reads
    // it: a value it refused failed the main step before any create, which this says too.
    let when = 'refused'
    try {
      when = readRevokeOnExit(runner.getInput('revokeOnExit') || 'false')
    } catch {
      // Left 'refused'.
    }
    if (when !== 'never' && runner.getInput('operation') === 'create')
      runner.info(
        `This step created no token (no create was sent, or an existing token was reused): ${nothing}`,
      )
    return
  }
  const search = mustSearch(create)
  const name = quoteName(create.name)
  if ((create.state === 'not sent' || create.state === 'refused') && !search) {
    const why =
      create.state === 'refused'
        ? 'the platform refused it, or answered with a token that was not its own (see the main step)'
        : 'its request never left the runner whole (it failed before that: see the main step)'
    runner.info(`This step's create of ${name} made no token, as ${why}: ${nothing}`)
    return
  }
  if (!revokes(runner, create, kept)) return

  const secrets = new Secrets(runner.setSecret)
  let connection: Connection
  try {
    connection = readConnection((input) => runner.getInput(input), secrets)
  } catch (error) {
    // The inputs' messages quote what was given, which may hold the secret.
    if (create.id !== undefined)
      runner.warning(secrets.scrub(revokeFailed(create.id, create.name, error)))
    if (search) runner.warning(secrets.scrub(notFound(create, error, () => undefined)))
    return
  }
  const options = { transport, bound: POST_STEP_BOUND }
  const { client, deadline, close } = connect(runner, connection, secrets, clock, options)
  try {
    if (create.id !== undefined) await revokeAtEnd(client, runner, create.id, create.name)
    if (!search) return
    runner.info(
      create.id === undefined
        ? `No answer said what became of this step's create of ${name}: looking for the token it may have made (revokeOnExit).`
        : `An attempt of this step's create of ${name} got no answer, and the create was sent again: looking for the token the lost attempt may have made (revokeOnExit).`,
    )
    const context = { clock, deadline, log: runner }
    const found = await searchCreated(client, create, context).catch((error: unknown) => {
      runner.warning(notFound(create, error, client.platformTime))
    })
    if (found === undefined) return
    if (found.found === 'one') {
      await revokeAtEnd(client, runner, found.token.id, create.name)
      return
    }
    const why =
      found.found === 'none'
        ? `none was in the list, and a create can land after the last look. ${lookForSentence(create, client.platformTime)}`
        : found.found === 'several'
          ? `${found.tokens.length} active tokens of that name were created since the step began, and it could not tell which one this step created: ${found.tokens.map(shortId).join(', ')}; revoke the one you do not need.`
          : `the only candidate, ${shortId(found.token)}, was not revoked because ${found.why}. Revoke it if it is this step's.`
    runner.warning(`Did not revoke a token named ${name} at the end of the job: ${why}`)
  } finally {
    close()
  }
}

/** Whether the token of this create must be looked for at the end: its fate is not known. */
export function mustSearch({ state, lostEarlier }: CreateRecord): boolean {
  return state === 'sent' || state === 'unknown' || lostEarlier === true
}

/**
 * Says `line` (a warning if `warn`) of a token the end keeps, and so does not look for one a
 * lost attempt of its create may have made: where that one would be, as a warning (nobody
 * holds its value). False: nothing is revoked.
 */
function keep(runner: Runner, line: string, create: CreateRecord, warn = false): false {
  const lost = mustSearch(create) ? ` ${lookForSentence(create, () => undefined)}` : ''
  runner[warn || lost ? 'warning' : 'info'](`${line}${lost}`)
  return false
}

/**
 * Whether the end revokes the create's token (and looks for a lost one): not when `kept` says
 * why (exec's `never`); with revokeOnExit: failure, only when the job did not succeed. The
 * runner evaluates the action's inputs again for the post step, so jobStatus (default
 * `${{ job.status }}`) holds the job's status now, after every other step
 * (docs/POST-STEP.md). When it is not known, the token is kept: revoking one that a
 * successful deploy put into service would cut its mediator off.
 */
function revokes(runner: Runner, create: CreateRecord, kept?: string): boolean {
  if (kept !== undefined) return keep(runner, kept, create)
  if (create.when !== 'failure') return true
  const which =
    create.id === undefined
      ? `the token named ${quoteName(create.name)} that this step may have created`
      : `the ${tokenLabel({ id: create.id, name: create.name })}`
  const status = runner.getInput(JOB_STATUS_INPUT)
  if (status === 'success')
    return keep(runner, `The job succeeded: ${which} stays active (revokeOnExit: failure).`, create)
  if (status !== 'failure' && status !== 'cancelled') {
    const unknown = `Did not revoke ${which} at the end of the job: revokeOnExit is failure, and the job's status is not known (${JOB_STATUS_INPUT} is ${quote(status, 40)}, not success, failure or cancelled). If the job did not succeed, revoke it yourself.`
    return keep(runner, unknown, create, true)
  }
  const cancelled =
    ' If a deploy had already put it in service, that mediator is now cut off, and the older tokens are still active: roll the deploy back or run it again.'
  runner.info(
    `The job ${status === 'failure' ? 'failed' : 'was cancelled'}: revoking ${which} (revokeOnExit: failure).${status === 'cancelled' ? cancelled : ''}`,
  )
  return true
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

function notFound(create: CreateRecord, error: unknown, platformTime: TokenApi['platformTime']) {
  return `Could not look for the token named ${quoteName(create.name)} that this step may have created: ${asSentence(messageOf(error))} ${lookForSentence(create, platformTime)}`
}

/**
 * The end's search for the token of a create whose fate is unknown: one list after another,
 * LOOK_AGAIN_MS apart, while `deadline` allows and the create may still land (or no list
 * answered); each is one call, which retries what may pass (a list that fails that way is
 * looked at again later). A failure that waiting will not change (a certificate, a refused
 * authentication, a 404, an answer that is not JSON) ends it at once, thrown, as is the last
 * failure when no list answered. Not found, it is `none`: a create can land after the last look.
 */
export async function searchCreated(
  api: Pick<TokenApi, 'listTokens' | 'platformTime'>,
  create: Pick<CreateRecord, 'name' | 'sentAt' | 'lastInFlightAt' | 'id'>,
  { clock, deadline, log }: { clock: Clock; deadline: Deadline; log: Logger },
): Promise<CreatedToken> {
  let failure: unknown // The last list's failure, when it may pass.
  for (let answered = false; ;) {
    const tokens = await api.listTokens().catch((error: unknown) => {
      if (!(error instanceof RequestError && error.transient)) throw error
      failure = error
    })
    answered ||= tokens !== undefined
    const created = tokens && findCreated(tokens, create, (at) => api.platformTime(at))
    if (created !== undefined && created.found !== 'none') return created
    // Looked at again while the time allows, and no list answered or the create may still land.
    const lastInFlight = create.lastInFlightAt ?? create.sentAt
    const landing = answered ? lastInFlight + LATE_CREATE_MS - clock.now() : Infinity
    if (Math.min(landing, deadline.remaining()) <= LOOK_AGAIN_MS) {
      if (!answered) throw failure
      return { found: 'none' }
    }
    const again = `ooking again in ${LOOK_AGAIN_MS / 1000} s.`
    log.info(
      tokens === undefined
        ? `Listing the tokens failed: ${messageOf(failure)} L${again}`
        : `No token named ${quoteName(create.name)} in the list yet; a create can land late: l${again}`,
    )
    await clock.sleep(LOOK_AGAIN_MS, deadline.stopSignal)
  }
}
