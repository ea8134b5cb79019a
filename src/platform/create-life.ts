// A create's life as one state machine, recorded by the main step as it happens and read by the post step; and the token of one whose answer was lost: its window on the platform's clock, the one candidate a list shows (never an unsure one), and where to look.
import { ActionError, isRefusal, messageOf, RequestError } from '../shared/errors.js'
import { createdTime, isUuid, nameAndId, newestFirst, sameId, shortId } from '../shared/records.js'
import { quoteName, tokenLabel, type RevokeOnExit, type TokenRecord } from '../shared/records.js'
import { asSentence, type Logger, oneLine, quote } from '../shared/text.js'
import type { Clock } from '../shared/time.js'
import type { PlatformTime } from './call-loop.js'

/**
 * Where a create is: `not sent` (no request of it written whole), `sent` (written, not yet
 * answered), `created` (its token's id known), `refused` (an answer said nothing of it is
 * left) or `unknown` (written, and no answer said what became of it).
 */
export const CREATE_STATES = ['not sent', 'sent', 'created', 'refused', 'unknown'] as const

/**
 * A create as recorded: its name, when it was first sent and last in flight (written, or its
 * answer lost; the runner's clock), its state, its token's id once known, whether an earlier
 * attempt got no answer (its token may land too), when the token is revoked (revokeOnExit).
 */
export interface CreateRecord {
  name: string
  sentAt: number
  lastInFlightAt?: number | undefined
  state: (typeof CREATE_STATES)[number]
  id?: string
  lostEarlier?: boolean
  when: RevokeOnExit
}

/** What finding a create's token reads of it: its name, when first sent and last in flight, its id once known. */
type Create = Pick<CreateRecord, 'name' | 'sentAt' | 'lastInFlightAt' | 'id'>

/**
 * A token this step made that nobody holds the value of (not handed on, or not the one asked
 * for): revoked at once, or, when that fails, named by its id. Returns the sentence saying which.
 */
export async function revokeUnheld(revoke: CreateContext['revoke'], token: TokenRecord) {
  try {
    await revoke(token.id)
    return 'It was revoked at once.'
  } catch (error) {
    return `Revoking it at once failed too: ${asSentence(messageOf(error))} Revoke it with operation: revoke and tokenId: ${shortId(token)}.`
  }
}

/** What following a create needs of the client, and where its record goes as it changes. */
export interface CreateContext {
  clock: Clock
  log: Logger
  platformTime: PlatformTime
  revoke: (tokenId: string) => Promise<unknown>
  list(): Promise<TokenRecord[]>
  record(record: CreateRecord): void
}

/**
 * One create, from its send: each change of state recorded as it happens, a lost answer
 * settled from the list, the answer checked. A record that cannot be kept (a runner file that
 * cannot be written) is kept as a failure, not thrown mid-request: accept acts on it.
 */
export class CreateLife {
  readonly record: CreateRecord
  private unrecorded: { error: unknown } | undefined
  private readonly context: CreateContext

  constructor(name: string, when: RevokeOnExit, context: CreateContext) {
    this.context = context
    this.record = { name, sentAt: context.clock.now(), state: 'not sent', when }
    // Thrown: if not even the first record can be kept, nothing is sent.
    context.record({ ...this.record })
  }

  /** An attempt was written whole: the platform may make the token until a while after the last. */
  readonly written = (): void => {
    const state = this.record.state === 'not sent' ? 'sent' : this.record.state
    this.change({ state, lastInFlightAt: this.context.clock.now() })
  }

  /**
   * After an attempt that may have made the token (its answer lost or unreadable): the one
   * token of it in the list is the result; none, and the create is sent again (undefined);
   * anything else fails rather than guess.
   */
  async afterLostAnswer(failure: string): Promise<TokenRecord | undefined> {
    const { record, context } = this
    const name = quoteName(record.name)
    const fail = (why: string) => new RequestError(`${failure}; ${why}`)
    context.log.info(`${failure}. The token may have been created all the same: checking the list.`)
    const lostEarlier = record.state === 'unknown' // An earlier attempt's answer was lost too.
    this.change({ state: 'unknown', lastInFlightAt: context.clock.now() }) // In flight until now.
    const lookFor = lookForSentence(record, context.platformTime)
    const tokens = await context.list().catch((error: unknown) => {
      const unknown = `whether token ${name} was created is unknown, as listing the tokens failed too: ${messageOf(error)} ${lookFor}`
      throw fail(unknown)
    })
    const created = findCreated(tokens, record, context.platformTime)
    if (created.found === 'none') {
      context.log.info(`No token named ${name} was created: sending the create again.`)
      return undefined
    }
    if (created.found !== 'one')
      throw fail(
        created.found === 'several'
          ? `${created.tokens.length} active tokens named ${name} were created since this step began (${created.tokens.map(shortId).join(', ')}), so which one is this step's cannot be told. Give each job a token name of its own; revoke the tokens you do not need.`
          : `the list shows one active token named ${name}, ${shortId(created.token)}, but ${created.why}. It was not taken for this step's. ${lookFor}`,
      )
    const { token } = created
    if (!isUuid(token.id))
      throw fail(
        `a token named ${name} was created, but its id ${quote(token.id, 80)} is not a UUID, so the action cannot use it. Revoke it and run again.`,
      )
    // Found: that attempt is accounted for; an earlier one, sent again, may still land.
    this.change({ state: 'created', id: token.id, lostEarlier })
    if (token.tokenValue === undefined) {
      const why = `token ${token.id} was created, but the platform does not show its value (the answer had none, or a blank one).`
      throw fail(`${why} ${await revokeUnheld(context.revoke, token)}`)
    }
    const createdAt = oneLine(token.createdAt ?? '?')
    context.log.info(`It was: token ${token.id}, created at ${createdAt}, is this step's token.`)
    return token
  }

  /**
   * The token, if it is the one asked for: the same name, active. Otherwise its value is not
   * handed on, and an active one is revoked at once, unless it is plainly older than the
   * create, and so another's: that one is named instead.
   */
  async accept(token: TokenRecord, request: string): Promise<TokenRecord> {
    const { record, context } = this
    const lost = record.state === 'unknown' || record.lostEarlier === true
    if (token.name === record.name && token.state === 'active') {
      this.change({ state: 'created', id: token.id, lostEarlier: lost })
      // What the end would act on was not kept, and nobody else will revoke it.
      if (this.unrecorded !== undefined) {
        const error = asSentence(messageOf(this.unrecorded.error))
        const what = `The value of the new ${tokenLabel(token)} was not handed on.`
        throw new ActionError(`${error} ${what} ${await revokeUnheld(context.revoke, token)}`)
      }
      // An earlier attempt's token may still land: the end looks for it, or the user is told.
      if (lost && record.when !== 'never')
        context.log.info(
          `An earlier attempt got no answer: the post step looks for a token it may have made, beside ${shortId(token)} (revokeOnExit${record.when === 'failure' ? ': failure, if the job does not succeed' : ''}).`,
        )
      else if (lost)
        context.log.warning(
          `An earlier attempt of this create got no answer, and the list did not show its token, so the create was sent again. ${lookForSentence(record, context.platformTime)} revokeOnExit: true looks for it at the end of the job.`,
        )
      return token
    }
    const mismatch = `${request} answered with the token ${nameAndId(token)} in state ${quote(oneLine(token.state), 40)}, not an active token named ${quoteName(record.name)}: its value was not handed on.`
    const created = createdTime(token)
    const since = createWindow(record, context.platformTime).since
    if (token.state !== 'active' || (created !== undefined && created < since)) {
      this.change({ state: 'refused', lostEarlier: lost }) // An earlier attempt's may still land.
      const older = ` It was created before this create was sent, so it may be another's: it was not revoked. Look at it with operation: list.`
      throw new RequestError(token.state === 'active' ? mismatch + older : mismatch)
    }
    this.change({ state: 'created', id: token.id, lostEarlier: lost })
    throw new RequestError(`${mismatch} ${await revokeUnheld(context.revoke, token)}`)
  }

  /** The create failed: a refusal leaves nothing; anything else written may have made the token, in flight until now. */
  failed(error: unknown): void {
    const { state } = this.record
    const status = error instanceof RequestError ? error.status : undefined
    const refused = state !== 'unknown' && (isRefusal(status) || status === 429)
    if (state === 'created') return
    if (refused) this.change({ state: 'refused' })
    else if (state === 'sent' || state === 'unknown')
      this.change({ state: 'unknown', lastInFlightAt: this.context.clock.now() })
  }

  private change(to: Partial<CreateRecord>): void {
    Object.assign(this.record, to)
    try {
      this.context.record({ ...this.record })
    } catch (error) {
      this.unrecorded ??= { error }
    }
  }
}

// How far apart the two clocks may be: with a Date header, its whole seconds and the
// answer's time on the way; without one, a minute (a self-hosted runner's clock drifts).
const KNOWN_CLOCK_MARGIN_MS = 2_000
const UNKNOWN_CLOCK_MARGIN_MS = 60_000
/** How long after it was last in flight a create may still land: a platform still creating finishes within seconds. */
export const LATE_CREATE_MS = 60_000

/** When this create's token was made, on the platform's clock: from its first send to a while after it was last in flight, give or take the clocks' margin; outside it, another's. */
export function createWindow(create: Pick<Create, 'sentAt' | 'lastInFlightAt'>, at: PlatformTime) {
  const { sentAt, lastInFlightAt = sentAt } = create
  const onPlatform = at(sentAt)
  const margin = onPlatform === undefined ? UNKNOWN_CLOCK_MARGIN_MS : KNOWN_CLOCK_MARGIN_MS
  const ahead = (onPlatform ?? sentAt) - sentAt
  const until = lastInFlightAt + ahead + LATE_CREATE_MS + margin
  return { since: sentAt + ahead - margin, until, clockKnown: onPlatform !== undefined }
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
 * The token a create made: the active ones of exactly its name made in its window, but the
 * one of its id (known already). Only exactly one is taken for sure; an unsure one never is.
 */
export function findCreated(
  tokens: readonly TokenRecord[],
  { name, sentAt, lastInFlightAt, id }: Create,
  platformTime: PlatformTime,
): CreatedToken {
  const { since, until, clockKnown } = createWindow({ sentAt, lastInFlightAt }, platformTime)
  const candidates = newestFirst(
    tokens.filter((token) => {
      if (token.name !== name || token.state !== 'active') return false
      if (id !== undefined && sameId(token.id, id)) return false
      const created = createdTime(token)
      return created === undefined || (created >= since && created <= until)
    }),
  )
  const [only, ...others] = candidates
  if (only === undefined) return { found: 'none' }
  if (others.length > 0) return { found: 'several', tokens: candidates }
  // Why the one candidate may not be this create's, if it may not.
  const created = createdTime(only)
  const why =
    created === undefined
      ? `its createdAt (${quote(only.createdAt ?? '', 40)}) cannot be read, so whether it was made by this step or before it cannot be told`
      : !clockKnown && created < sentAt - KNOWN_CLOCK_MARGIN_MS
        ? `it was created ${Math.round((sentAt - created) / 1000)} s before the create was sent by the runner's clock, and the platform's answers carry no Date header to compare the two clocks with, so it may be another's`
        : undefined
  return why === undefined ? { found: 'one', token: only } : { found: 'unsure', token: only, why }
}

/** Where a token of this create would be (an active one of its name, made since), and that nobody has its value. */
export function lookForSentence({ name, sentAt, id }: Create, platformTime: PlatformTime) {
  const since = new Date(createWindow({ sentAt }, platformTime).since).toISOString()
  const other = id === undefined ? '' : ` other than ${shortId({ id })}`
  return `An active token named ${quoteName(name)}${other} created after ${since} would be this step's, and nobody has its value: revoke it (operation: revoke, tokenId).`
}
