// The post step's search for a token whose create answer was lost: it keeps looking, within totalTimeout.
import type { Clock } from '../shared/clock.js'
import type { Deadline } from '../shared/deadline.js'
import type { Logger } from '../shared/logger.js'
import { DeadlineError, RequestError } from '../platform/errors.js'
import {
  findCreated,
  KNOWN_CLOCK_MARGIN_MS,
  UNKNOWN_CLOCK_MARGIN_MS,
  type CreatedToken,
  type PlatformTime,
} from '../platform/lost-create.js'
import type { TokenApi } from '../platform/token-api.js'
import type { CreateSent } from './state.js'
import { createdTime, sameId, type TokenRecord } from '../shared/records.js'

/**
 * How long after it was sent a create may still land: a platform that was still creating
 * when the answer was lost (or the step cancelled) finishes within seconds.
 */
export const LATE_CREATE_MS = 60_000
/** How often the list is read again while a create may still land. */
const POLL_MS = 2_000
/** The longest wait between two lists that failed. */
const MAX_WAIT_MS = 8_000

export interface SearchContext {
  clock: Clock
  deadline: Deadline
  log: Logger
}

/**
 * The token `create` made, told from the list (lost-create.ts), ignoring `known` (the
 * token the step made when it sent the create again). It keeps looking: while the
 * create may still land, a list without it is read again; a list that fails with no
 * answer, or one that says "not now" (408, 429, 5xx), is tried again with backoff; both
 * while totalTimeout allows.
 */
export async function searchCreated(
  client: TokenApi,
  create: CreateSent,
  known: string | undefined,
  context: SearchContext,
): Promise<CreatedToken> {
  const { clock, deadline, log } = context
  for (;;) {
    const platformTime: PlatformTime = (at) => client.platformTime(at)
    const madeLater = madeAfterTheCreate(create, deadline.totalMs, platformTime)
    const tokens = (await listPatiently(client, context)).filter(
      (token) => (known === undefined || !sameId(token.id, known)) && !madeLater(token),
    )
    const created = findCreated(tokens, create.name, create.sentAt, platformTime)
    const landing = create.sentAt + LATE_CREATE_MS - clock.now()
    if (created.found !== 'none' || landing <= 0 || deadline.remaining() <= POLL_MS) return created
    log.info(
      `No token named '${create.name}' in the list yet; a create can land late: looking again in ${POLL_MS / 1000} s, for another ${Math.ceil(landing / 1000)} s at most.`,
    )
    await clock.sleep(Math.min(POLL_MS, landing), deadline.stopSignal)
  }
}

/**
 * Whether a token was made after the create could have landed: the main step sent every
 * attempt within its totalTimeout of `sentAt` (no attempt starts past it; the post step
 * reads the same input), and one lands within LATE_CREATE_MS. A token of that name made
 * later is another's (a later step, a parallel job): never taken for the create's, even
 * when it is the only one. With no totalTimeout, nothing bounds it.
 */
function madeAfterTheCreate(
  create: CreateSent,
  totalMs: number,
  platformTime: PlatformTime,
): (token: TokenRecord) => boolean {
  if (totalMs <= 0) return () => false
  const lastSent = create.sentAt + totalMs
  const onPlatform = platformTime(lastSent)
  const latest =
    onPlatform === undefined
      ? lastSent + LATE_CREATE_MS + UNKNOWN_CLOCK_MARGIN_MS
      : onPlatform + LATE_CREATE_MS + KNOWN_CLOCK_MARGIN_MS
  return (token) => {
    const created = createdTime(token)
    return created !== undefined && created > latest
  }
}

/** The list, read again after a failure that may pass, while totalTimeout allows. */
async function listPatiently(
  client: TokenApi,
  { clock, deadline, log }: SearchContext,
): Promise<TokenRecord[]> {
  for (let wait = 1_000; ; wait = Math.min(2 * wait, MAX_WAIT_MS)) {
    try {
      return await client.listTokens()
    } catch (error) {
      if (!(error instanceof RequestError) || !mayPass(error) || deadline.remaining() <= wait)
        throw error
      log.info(
        `Listing the tokens failed: ${error.message} Looking again in ${wait / 1000} s, while totalTimeout allows.`,
      )
      await clock.sleep(wait, deadline.stopSignal)
    }
  }
}

/** No answer, or one that says "not now": worth trying again. Not the budget running out. */
function mayPass(error: RequestError): boolean {
  if (error instanceof DeadlineError) return false
  const { status } = error
  return status === undefined || status === 408 || status === 429 || status >= 500
}
