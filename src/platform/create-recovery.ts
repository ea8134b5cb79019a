// After a create whose answer was lost: the token it made found in the list, or the create sent again and a late one named.
import type { Clock } from '../shared/clock.js'
import type { Deadline } from '../shared/deadline.js'
import type { Logger } from '../shared/logger.js'
import { messageOf } from '../shared/errors.js'
import { createdTime, nameAndId, sameId, shortId, type TokenRecord } from '../shared/records.js'
import { truncate } from '../shared/text.js'
import { isUuid } from '../shared/uuid.js'
import { RequestError } from './errors.js'
import type { CreateOptions } from './token-api.js'
import {
  findCreated,
  KNOWN_CLOCK_MARGIN_MS,
  UNKNOWN_CLOCK_MARGIN_MS,
  type PlatformTime,
} from './lost-create.js'

/** What the recovery needs of the client. */
export interface RecoveryClient {
  clock: Clock
  deadline: Deadline
  list(): Promise<TokenRecord[]>
  revoke(tokenId: string): Promise<unknown>
  platformTime: PlatformTime
  log: Logger
}

/** How long after a create sent again the list is read for the lost one: a list may lag. */
const LATE_LOOK_MS = 2_000

/** The recovery of one create of `name`, first sent at `sentAt` (the runner's clock). */
export class CreateRecovery {
  /** Whether an attempt's answer was lost with no token of it in the list, so the create was sent again. */
  private sentAgain = false

  constructor(
    private readonly name: string,
    private readonly sentAt: number,
    private readonly options: CreateOptions,
    private readonly client: RecoveryClient,
  ) {}

  /**
   * Lists the tokens and returns the one this create made (see lost-create.ts), or
   * undefined when it made none: then the create is sent again. When the list cannot
   * tell which token is this step's, that fails rather than guess.
   */
  async findCreated(failure: string): Promise<TokenRecord | undefined> {
    const { name, sentAt, client } = this
    client.log.info(`${failure}. The token may have been created all the same: checking the list.`)
    let tokens: TokenRecord[]
    try {
      tokens = await client.list()
    } catch (error) {
      throw new RequestError(
        `${failure}; whether token '${name}' was created is unknown, as listing the tokens failed too: ${messageOf(error)} Look for it before running again.`,
      )
    }
    const created = findCreated(tokens, name, sentAt, client.platformTime)
    switch (created.found) {
      case 'none':
        client.log.info(`No token named '${name}' was created.`)
        // Sent again: the lost one may still land, or the list may lag behind it.
        this.sentAgain = true
        this.options.onLostAnswer?.()
        return undefined
      case 'several':
        throw new RequestError(
          `${failure}; ${created.tokens.length} active tokens named '${name}' were created since this step began (${created.tokens.map(shortId).join(', ')}), so which one is this step's cannot be told. Give each job a token name of its own; revoke the tokens you do not need.`,
        )
      case 'unsure':
        throw new RequestError(
          `${failure}; the list shows one active token named '${name}', ${shortId(created.token)}, but ${created.why}. It was not taken for this step's: look for this step's token before running again.`,
        )
      case 'one':
        return await this.adopted(created.token, failure)
    }
  }

  /**
   * Once the create answered, if it was sent again because the list showed no token of the lost one:
   * that one may still land, or the list may have lagged behind it. A token of this name
   * created since the first send, beside the one now in hand, is named in a warning: it
   * is probably the lost create's, and nobody has its value. It is not revoked: with the
   * same name, another job's token would look the same.
   */
  async nameLateCreates(kept: TokenRecord): Promise<void> {
    const { name, client } = this
    if (!this.sentAgain) return
    if (client.deadline.remaining() <= LATE_LOOK_MS) {
      client.log.debug(`No time left in totalTimeout to look for a late create of '${name}'.`)
      return
    }
    let tokens: TokenRecord[]
    try {
      // A list that lagged behind the lost create may show it a moment later.
      await client.clock.sleep(LATE_LOOK_MS, client.deadline.stopSignal)
      tokens = await client.list()
    } catch (error) {
      client.log.debug(`Could not look for a late create of '${name}': ${messageOf(error)}`)
      return
    }
    const since = this.earliest()
    const late = tokens.filter(
      (token) =>
        token.name === name &&
        token.state === 'active' &&
        !sameId(token.id, kept.id) &&
        (createdTime(token) ?? Infinity) >= since,
    )
    if (late.length === 0) return
    client.log.warning(
      `The first create of '${name}' got no answer, and the list did not show its token, so the create was sent again; the list now shows ${late.map(nameAndId).join(', ')} created since then as well. It is probably that first create's, finished late, and nobody has its value: revoke it if nothing uses it (operation: revoke, tokenId).`,
    )
  }

  /** The earliest createdAt the create's own token may have, by the platform's clock. */
  private earliest(): number {
    const platformSentAt = this.client.platformTime(this.sentAt)
    return platformSentAt === undefined
      ? this.sentAt - UNKNOWN_CLOCK_MARGIN_MS
      : platformSentAt - KNOWN_CLOCK_MARGIN_MS
  }

  /** The token a lost create made, once it is sure to be usable as this step's. */
  private async adopted(token: TokenRecord, failure: string): Promise<TokenRecord> {
    const { name, client } = this
    if (!isUuid(token.id)) {
      throw new RequestError(
        `${failure}; a token named '${name}' was created, but its id ${JSON.stringify(truncate(token.id, 80))} is not a UUID, so the action cannot use it. Revoke it and run again.`,
      )
    }
    if (token.tokenValue === undefined) {
      // This step's token, and nobody will ever have its value: revoked at once.
      let revoked: string
      try {
        await client.revoke(token.id)
        revoked = 'It was revoked at once.'
      } catch (error) {
        revoked = `Revoking it at once failed too, so revoke it with operation: revoke and tokenId: ${token.id}: ${messageOf(error)}`
      }
      throw new RequestError(
        `${failure}; token ${token.id} was created, but the platform does not show its value (the answer had none, or a blank one). ${revoked}`,
      )
    }
    client.log.info(
      `It was: token ${token.id}, created at ${token.createdAt ?? '?'}, is this step's token.`,
    )
    return token
  }
}
