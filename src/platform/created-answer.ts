// A create's answer checked against the request: the name asked for, and active; else its token is revoked at once.
import { messageOf } from '../shared/errors.js'
import { createdTime, nameAndId, type TokenRecord } from '../shared/records.js'
import { oneLine, truncate } from '../shared/text.js'
import { RequestError } from './errors.js'
import { KNOWN_CLOCK_MARGIN_MS, UNKNOWN_CLOCK_MARGIN_MS, type PlatformTime } from './lost-create.js'

/** What checkCreated needs of the client: the request's time, the platform's clock, a revoke. */
export interface CreateContext {
  /** The token's name, as sent. */
  name: string
  /** `POST <url>`, for messages. */
  request: string
  /** When the create was sent, by the runner's clock. */
  sentAt: number
  platformTime: PlatformTime
  revoke(tokenId: string): Promise<unknown>
}

/**
 * The token a create answered with, if it is the one asked for: the same name, active.
 * Another name or state is no success, and its value is not handed on. A token that is
 * active all the same is revoked at once, as nobody will have its value; unless it is
 * plainly older than the create (by the platform's clock), and so another's token, whose
 * revoke would cut its mediator off: that one is named instead.
 */
export async function checkCreated(
  token: TokenRecord,
  context: CreateContext,
): Promise<TokenRecord> {
  const { name, request } = context
  if (token.name === name && token.state === 'active') return token
  const state = JSON.stringify(truncate(oneLine(token.state), 40))
  const mismatch = `${request} answered with the token ${nameAndId(token)} in state ${state}, not an active token named '${truncate(oneLine(name), 200)}': its value was not handed on.`
  if (token.state !== 'active') throw new RequestError(mismatch)
  if (olderThanCreate(token, context)) {
    throw new RequestError(
      `${mismatch} It was created before this create was sent, so it may be another's: it was not revoked. Look at it with operation: list.`,
    )
  }
  let revoked: string
  try {
    await context.revoke(token.id)
    revoked = 'It was revoked at once.'
  } catch (error) {
    revoked = `Revoking it at once failed too, so revoke it with operation: revoke and tokenId: ${token.id}: ${messageOf(error)}`
  }
  throw new RequestError(`${mismatch} ${revoked}`)
}

/** Created before the create was sent, beyond what the two clocks can be apart. */
function olderThanCreate(token: TokenRecord, { sentAt, platformTime }: CreateContext): boolean {
  const created = createdTime(token)
  if (created === undefined) return false
  const platformSentAt = platformTime(sentAt)
  return platformSentAt === undefined
    ? created < sentAt - UNKNOWN_CLOCK_MARGIN_MS
    : created < platformSentAt - KNOWN_CLOCK_MARGIN_MS
}
