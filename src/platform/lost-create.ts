// What became of a create: the facts the main step records as they happen, and every rule for a create whose answer was lost.
import type { Clock } from '../shared/time.js'
import { ActionError, isRefusal, messageOf, RequestError } from '../shared/errors.js'
import { asSentence, type Logger, oneLine, truncate } from '../shared/text.js'
import {
  createdTime,
  isUuid,
  nameAndId,
  newestFirst,
  quoteName,
  sameId,
  shortId,
  tokenLabel,
  type TokenRecord,
} from '../shared/records.js'

/**
 * What the main step knows of its create, saved for the post step the moment each fact is
 * known (post/state.ts), so that whatever ends the main step, the post step revokes the
 * token by its id, looks for it, or knows there is none: the name, when it was first sent
 * (the runner's clock), whether a request of it was written whole (from then on the
 * platform may have acted), the id of its token once an answer (or the list) said it,
 * whether an answer said that nothing of it is left (a refusal, a token not its own), and
 * whether an attempt was written with no answer to say what became of it (lost).
 */
export interface CreateFacts {
  name: string
  sentAt: number
  written: boolean
  id?: string
  refused: boolean
  lost: boolean
}

/** A create as sent: its name, and when it was first sent (the runner's clock). */
type Sent = Pick<CreateFacts, 'name' | 'sentAt'>

/** Whether the post step must look for a token of this create in the list. */
export function mustSearch(facts: CreateFacts): boolean {
  return facts.lost || (facts.written && facts.id === undefined && !facts.refused)
}

/** The platform's time at a time of the runner's clock, by its Date headers; undefined without. */
export type PlatformTime = (runnerTime: number) => number | undefined

/** Revokes a token by its id. */
type Revoke = (tokenId: string) => Promise<unknown>

// How far apart the two clocks may be: with a Date header, its whole seconds and the
// answer's time on the way; without one, a minute (a self-hosted runner's clock drifts).
const KNOWN_CLOCK_MARGIN_MS = 2_000
const UNKNOWN_CLOCK_MARGIN_MS = 60_000
/** How long after it was sent a create may still land: a platform still creating finishes within seconds. */
export const LATE_CREATE_MS = 60_000

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
  { name, sentAt }: Sent,
  platformTime: PlatformTime,
  { totalMs = 0, except }: { totalMs?: number; except?: string } = {},
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
    const why = `its createdAt (${JSON.stringify(truncate(only.createdAt ?? '', 40))}) cannot be read, so whether it was made by this step or before it cannot be told`
    return { found: 'unsure', token: only, why }
  }
  if (!clockKnown && created < sentAt - KNOWN_CLOCK_MARGIN_MS) {
    const seconds = Math.round((sentAt - created) / 1000)
    const why = `it was created ${seconds} s before the create was sent by the runner's clock, and the platform's answers carry no Date header to compare the two clocks with, so it may be another's`
    return { found: 'unsure', token: only, why }
  }
  return { found: 'one', token: only }
}

/**
 * A token this step made whose value nobody will have: revoked at once, or, when that
 * fails, named by its id. Returns the sentence that says which.
 */
export async function revokeAtOnce(revoke: Revoke, token: TokenRecord): Promise<string> {
  try {
    await revoke(token.id)
    return 'It was revoked at once.'
  } catch (error) {
    return `Revoking it at once failed too: ${asSentence(messageOf(error))} Revoke it with operation: revoke and tokenId: ${shortId(token)}.`
  }
}

/** The failure of a step that made a token and could not hand it on (`why`): revoked at once. */
export async function notHandedOn(revoke: Revoke, token: TokenRecord, why: unknown) {
  const revoked = await revokeAtOnce(revoke, token)
  const what = `The value of the new ${tokenLabel(token)} was not handed on.`
  return new ActionError(`${asSentence(messageOf(why))} ${what} ${revoked}`)
}

/** Where a token of this create would be (an active one of its name, made since), and that nobody has its value. */
export function lookForSentence(facts: Sent, platformTime: PlatformTime, except?: string) {
  const since = new Date(createWindow(facts.sentAt, platformTime).since).toISOString()
  const other = except === undefined ? '' : ` other than ${truncate(oneLine(except), 80)}`
  return `An active token named ${quoteName(facts.name)}${other} created after ${since} would be this step's, and nobody has its value: revoke it (operation: revoke, tokenId).`
}

/** What following a create needs of the client; `save` and `postStepLooks` come with revokeOnExit. */
export interface CreateContext {
  clock: Clock
  log: Logger
  list: () => Promise<TokenRecord[]>
  revoke: Revoke
  platformTime: PlatformTime
  save(facts: CreateFacts): void
  postStepLooks: boolean
}

/** One create, followed from its send: each fact saved as learnt, a lost answer settled, the answer checked. */
export class FollowedCreate {
  private readonly facts: CreateFacts
  /** Why a fact could not be saved (GITHUB_STATE): then no post step will revoke the token. */
  private unsaved: { error: unknown } | undefined
  private lostAttempts = 0

  constructor(
    name: string,
    private readonly context: CreateContext,
  ) {
    this.facts = { name, sentAt: context.clock.now(), written: false, refused: false, lost: false }
    // Not kept, as later ones are: if the first fact cannot be saved, nothing is sent.
    context.save({ ...this.facts })
  }

  /** An attempt was written whole: from then on the platform may have made the token. */
  readonly written = (): void => {
    if (!this.facts.written) this.note({ written: true })
  }

  /**
   * After an attempt that may have made the token (its answer lost or unreadable): the one
   * token of it in the list is the result; none, and the create is sent again (undefined);
   * anything else fails rather than guess.
   */
  async afterLostAnswer(failure: string): Promise<TokenRecord | undefined> {
    const { facts, context } = this
    const name = quoteName(facts.name)
    const lookFor = lookForSentence(facts, context.platformTime)
    context.log.info(`${failure}. The token may have been created all the same: checking the list.`)
    this.lostAttempts++
    this.note({ lost: true })
    const tokens = await context.list().catch((error: unknown) => {
      const unknown = `whether token ${name} was created is unknown, as listing the tokens failed too: ${messageOf(error)} ${lookFor}`
      throw new RequestError(`${failure}; ${unknown}`)
    })
    const created = findCreated(tokens, facts, context.platformTime)
    if (created.found === 'none') {
      context.log.info(`No token named ${name} was created: sending the create again.`)
      return undefined
    }
    if (created.found !== 'one') {
      const why =
        created.found === 'several'
          ? `${created.tokens.length} active tokens named ${name} were created since this step began (${created.tokens.map(shortId).join(', ')}), so which one is this step's cannot be told. Give each job a token name of its own; revoke the tokens you do not need.`
          : `the list shows one active token named ${name}, ${shortId(created.token)}, but ${created.why}. It was not taken for this step's. ${lookFor}`
      throw new RequestError(`${failure}; ${why}`)
    }
    const { token } = created
    if (!isUuid(token.id)) {
      const id = JSON.stringify(truncate(token.id, 80))
      const why = `a token named ${name} was created, but its id ${id} is not a UUID, so the action cannot use it. Revoke it and run again.`
      throw new RequestError(`${failure}; ${why}`)
    }
    // Found: that attempt is accounted for; an earlier one, sent again, may still land.
    this.note({ id: token.id, lost: this.lostAttempts > 1 })
    if (token.tokenValue === undefined) {
      const why = `token ${token.id} was created, but the platform does not show its value (the answer had none, or a blank one).`
      throw new RequestError(`${failure}; ${why} ${await revokeAtOnce(context.revoke, token)}`)
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
    const { facts, context } = this
    if (token.name === facts.name && token.state === 'active') {
      this.note({ id: token.id })
      // The post step was not told about it, and nobody else will revoke it.
      if (this.unsaved !== undefined)
        throw await notHandedOn(context.revoke, token, this.unsaved.error)
      // An earlier attempt's token may still land: the post step looks for it, or the user is told.
      if (facts.lost) {
        const looks = `An earlier attempt got no answer: the post step looks for a token it may have made, beside ${shortId(token)} (revokeOnExit).`
        const told = `An earlier attempt of this create got no answer, and the list did not show its token, so the create was sent again. ${lookForSentence(facts, context.platformTime, token.id)} revokeOnExit: true looks for it at the end of the job.`
        if (context.postStepLooks) context.log.info(looks)
        else context.log.warning(told)
      }
      return token
    }
    const state = JSON.stringify(truncate(oneLine(token.state), 40))
    const mismatch = `${request} answered with the token ${nameAndId(token)} in state ${state}, not an active token named ${quoteName(facts.name)}: its value was not handed on.`
    const created = createdTime(token)
    const since = createWindow(facts.sentAt, context.platformTime).since
    if (token.state !== 'active' || (created !== undefined && created < since)) {
      this.note({ refused: true })
      const older = ` It was created before this create was sent, so it may be another's: it was not revoked. Look at it with operation: list.`
      throw new RequestError(token.state === 'active' ? mismatch + older : mismatch)
    }
    this.note({ id: token.id })
    throw new RequestError(`${mismatch} ${await revokeAtOnce(context.revoke, token)}`)
  }

  /** The create failed: a refusal leaves nothing; anything else written may have made the token. */
  failed(error: unknown): void {
    if (this.facts.id !== undefined || this.facts.lost) return
    const status = error instanceof RequestError ? error.status : undefined
    if (isRefusal(status) || status === 429) this.note({ refused: true })
    else if (this.facts.written) this.note({ lost: true })
  }

  /** Saves the facts; a failure is kept, not thrown (it may come mid-request): accept acts on it. */
  private note(change: Partial<CreateFacts>): void {
    Object.assign(this.facts, change)
    try {
      this.context.save({ ...this.facts })
    } catch (error) {
      this.unsaved ??= { error }
    }
  }
}
