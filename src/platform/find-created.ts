// Which token a create whose answer was lost made: its window on the platform's clock, the one candidate a list shows (never an unsure one), the search at the end, and where to look.
import { messageOf, RequestError } from '../shared/errors.js'
import { createdTime, newestFirst, quoteName, sameId, type TokenRecord } from '../shared/records.js'
import { type Logger, oneLine, quote, truncate } from '../shared/text.js'
import type { Clock, Deadline } from '../shared/time.js'

/** The platform's time at a time of the runner's clock, by its Date headers; undefined without. */
export type PlatformTime = (runnerTime: number) => number | undefined

/** A create as find-created reads it: its name, when first sent (the runner's clock), its token's id once known. */
type Create = { name: string; sentAt: number; id?: string | undefined }

// How far apart the two clocks may be: with a Date header, its whole seconds and the
// answer's time on the way; without one, a minute (a self-hosted runner's clock drifts).
const KNOWN_CLOCK_MARGIN_MS = 2_000
const UNKNOWN_CLOCK_MARGIN_MS = 60_000
/** How long after it was sent a create may still land: a platform still creating finishes within seconds. */
const LATE_CREATE_MS = 60_000
/** How often the list is looked at again while a token of a lost create is searched for. */
const LOOK_AGAIN_MS = 2_000

/**
 * When a token of this create was made, by the platform's clock: from the first send (less
 * the clocks' margin) to the last one a totalTimeout allows, landed. Outside it, another's.
 */
export function createWindow(sentAt: number, platformTime: PlatformTime, totalMs = 0) {
  const onPlatform = platformTime(sentAt)
  const margin = onPlatform === undefined ? UNKNOWN_CLOCK_MARGIN_MS : KNOWN_CLOCK_MARGIN_MS
  const start = onPlatform ?? sentAt
  const until = totalMs > 0 ? start + totalMs + LATE_CREATE_MS + margin : Infinity
  return { since: start - margin, until, clockKnown: onPlatform !== undefined }
}

/**
 * What the list says of a lost create: none, its own, several (newest first), or one that may
 * be another's (`why`), whose revoke, or adoption, would cut its mediator off.
 */
export type CreatedToken =
  | { found: 'none' }
  | { found: 'one'; token: TokenRecord }
  | { found: 'several'; tokens: TokenRecord[] }
  | { found: 'unsure'; token: TokenRecord; why: string }

/**
 * The token a create made: the active ones of exactly its name made in its window, but
 * `except` (one known already). Only exactly one is taken for sure; an unsure one never is.
 */
export function findCreated(
  tokens: readonly TokenRecord[],
  { name, sentAt }: Create,
  platformTime: PlatformTime,
  { totalMs = 0, except }: { totalMs?: number; except?: string | undefined } = {},
): CreatedToken {
  const { since, until, clockKnown } = createWindow(sentAt, platformTime, totalMs)
  const candidates = newestFirst(
    tokens.filter((token) => {
      if (token.name !== name || token.state !== 'active') return false
      if (except !== undefined && sameId(token.id, except)) return false
      const created = createdTime(token)
      return created === undefined || (created >= since && created <= until)
    }),
  )
  const [only, ...others] = candidates
  if (only === undefined) return { found: 'none' }
  if (others.length > 0) return { found: 'several', tokens: candidates }
  const created = createdTime(only)
  if (created === undefined) {
    const why = `its createdAt (${quote(only.createdAt ?? '', 40)}) cannot be read, so whether it was made by this step or before it cannot be told`
    return { found: 'unsure', token: only, why }
  }
  if (!clockKnown && created < sentAt - KNOWN_CLOCK_MARGIN_MS) {
    const seconds = Math.round((sentAt - created) / 1000)
    const why = `it was created ${seconds} s before the create was sent by the runner's clock, and the platform's answers carry no Date header to compare the two clocks with, so it may be another's`
    return { found: 'unsure', token: only, why }
  }
  return { found: 'one', token: only }
}

/** Where a token of this create would be (an active one of its name, made since), and that nobody has its value. */
export function lookForSentence(record: Create, platformTime: PlatformTime) {
  const since = new Date(createWindow(record.sentAt, platformTime).since).toISOString()
  const other = record.id === undefined ? '' : ` other than ${truncate(oneLine(record.id), 80)}`
  return `An active token named ${quoteName(record.name)}${other} created after ${since} would be this step's, and nobody has its value: revoke it (operation: revoke, tokenId).`
}

/**
 * The end's search for the token of a create whose fate is unknown: one list after another,
 * LOOK_AGAIN_MS apart, while `deadline` allows and the create may still land (or no list answered); each is one call, which retries what may pass
 * (a list that fails that way is looked at again later). A failure that waiting will not
 * change (a certificate, a refused authentication, a 404, an answer that is not JSON) ends
 * it at once, thrown, as is the last failure when no list answered. Not found, it is `none`:
 * a create can land after the last look.
 */
export async function searchCreated(
  api: { listTokens(): Promise<TokenRecord[]>; platformTime: PlatformTime },
  record: Create,
  { clock, deadline, log }: { clock: Clock; deadline: Deadline; log: Logger },
  totalMs: number,
): Promise<CreatedToken> {
  let failure: { error: unknown } | undefined
  for (let answered = false; ;) {
    const tokens = await api.listTokens().catch((error: unknown) => {
      if (!(error instanceof RequestError && error.transient)) throw error
      failure = { error }
    })
    answered ||= tokens !== undefined
    const options = { totalMs, except: record.id }
    const created = tokens && findCreated(tokens, record, (at) => api.platformTime(at), options)
    if (created !== undefined && created.found !== 'none') return created
    // Looked at again while the time allows, and no list answered or the create may still land.
    const landing = answered ? record.sentAt + LATE_CREATE_MS - clock.now() : Infinity
    if (Math.min(landing, deadline.remaining()) <= LOOK_AGAIN_MS) {
      if (!answered && failure !== undefined) throw failure.error
      return { found: 'none' }
    }
    const again = `ooking again in ${LOOK_AGAIN_MS / 1000} s.`
    log.info(
      tokens === undefined
        ? `Listing the tokens failed: ${messageOf(failure?.error)} L${again}`
        : `No token named ${quoteName(record.name)} in the list yet; a create can land late: l${again}`,
    )
    await clock.sleep(LOOK_AGAIN_MS, deadline.stopSignal)
  }
}
