// The platform client: create, list and revoke, with recovery after a lost create and idempotent revokes.
import { systemClock, type Clock } from '../clock.js'
import { Deadline } from '../deadline.js'
import type { Logger } from '../logger.js'
import { findById, shortId, type TokenRecord } from '../records.js'
import type { SecretMasker } from '../secrets.js'
import { messageOf } from '../errors.js'
import { truncate } from '../text.js'
import { isUuid } from '../uuid.js'
import { authenticate, Session } from './auth.js'
import { CallLoop } from './call-loop.js'
import { readCreated, readList, readRevoked } from './decode.js'
import { checkCreated } from './created-answer.js'
import { jsonRequest, requestLine, revokePath, TOKENS_PATH } from './endpoints.js'
import { AuthenticationError, isRefusal, RequestError, UnsettledRevokeError } from './errors.js'
import { HttpTransport, type HttpRequest, type Transport } from './http.js'
import { findCreated } from './lost-create.js'
import { DEFAULT_BACKOFF, type Backoff } from './retry.js'
import { settleRevoke } from './settle-revoke.js'
import type { RevokeOptions, RevokeOutcome, TokenApi } from './token-api.js'

export interface ClientOptions {
  baseUrl: string
  authEndpoint: string
  clientId: string
  clientSecret: string
  timeoutMs: number
  /** Retries of a transient failure, on top of the first attempt. */
  retries: number
  secrets: SecretMasker
  log: Logger
  clock?: Clock
  backoff?: Backoff
  /** How attempts are sent; node:http by default. */
  transport?: Transport
  /** The step's budget (totalTimeout); none by default. */
  deadline?: Deadline
}

/**
 * The platform's API: one method per call. Behind it, the call loop owns timeouts,
 * retries and failure messages, the session owns the access token, and decode.ts
 * checks every answer; every secret is masked the moment it arrives.
 */
export class PlatformClient implements TokenApi {
  private readonly clock: Clock
  private readonly transport: Transport
  private readonly loop: CallLoop

  constructor(private readonly options: ClientOptions) {
    this.clock = options.clock ?? systemClock
    this.transport = options.transport ?? new HttpTransport()
    this.loop = new CallLoop({
      transport: this.transport,
      timeoutMs: options.timeoutMs,
      deadline: options.deadline ?? new Deadline(this.clock, 0),
      retries: options.retries,
      secrets: options.secrets,
      log: options.log,
      clock: this.clock,
      backoff: options.backoff ?? DEFAULT_BACKOFF,
    })
    const now = () => this.clock.now()
    this.loop.useAccessTokens(new Session(() => authenticate(this.loop, options, now), now))
  }

  /**
   * POST /api/tokens. A create is not simply sent again: when an attempt fails in a
   * way that may have created the token (its answer lost), the list is checked first,
   * after the backoff wait, and the one token found there is the result.
   */
  async createToken(name: string): Promise<TokenRecord> {
    const request = this.apiRequest('POST', TOKENS_PATH, JSON.stringify({ name }))
    const startedAt = this.clock.now()
    const token = await this.loop.call('api', request, {
      read: (answer) => readCreated(request, answer),
      onUncertain: (failure) => this.findCreated(name, startedAt, failure),
    })
    return checkCreated(token, {
      name,
      request: requestLine(request),
      sentAt: startedAt,
      platformTime: (at) => this.platformTime(at),
      revoke: (tokenId) => this.revokeToken(tokenId),
    })
  }

  /** GET /api/tokens: every token of the project, active and revoked. */
  listTokens(): Promise<TokenRecord[]> {
    const request = this.apiRequest('GET', TOKENS_PATH)
    return this.loop.call('api', request, { read: (answer) => readList(request, answer) })
  }

  /**
   * POST /api/tokens/{id}/revoke?tokenId={id}. Idempotent: when the platform refuses, or
   * answers with anything but this token's record, revoked, the token's record in a list
   * fetched after it tells a token revoked already (success) from one that does not
   * exist, or one that is still active (the refusal stands). See RevokeOptions.settle.
   */
  async revokeToken(tokenId: string, options: RevokeOptions = {}): Promise<RevokeOutcome> {
    const request = this.apiRequest('POST', revokePath(tokenId))
    // Set when an attempt may have revoked it: then a revoked record is this call's doing.
    const uncertain = { mayHaveRevoked: false }
    try {
      const token = await this.loop.call('api', request, {
        read: (answer) => readRevoked(request, answer, tokenId),
        onUncertain: () => {
          uncertain.mayHaveRevoked = true
          return Promise.resolve(undefined)
        },
        ...(options.scheduled && { scheduled: options.scheduled }),
      })
      return { token, alreadyRevoked: false }
    } catch (error) {
      if (!(error instanceof RequestError) || !worthLookingUp(error)) throw error
      const unsettled = new UnsettledRevokeError(error, uncertain.mayHaveRevoked)
      if (options.settle === 'later') throw unsettled
      let tokens: TokenRecord[]
      try {
        tokens = await this.listTokens()
      } catch {
        // The list is for a better answer; if it fails too, the refusal stands.
        throw error
      }
      return settleRevoke(tokenId, unsettled, findById(tokens, tokenId))
    }
  }

  /** Closes kept-alive connections so that the process can exit at once. */
  close(): void {
    this.transport.close()
  }

  /** The platform's time at a time of ours, by the Date headers of its answers so far. */
  platformTime(at: number): number | undefined {
    return this.loop.platformTime(at)
  }

  private apiRequest(method: HttpRequest['method'], path: string, body?: string): HttpRequest {
    return jsonRequest(method, this.options.baseUrl + path, body)
  }

  /**
   * After a create whose answer was lost: lists the tokens and returns the one this
   * create made (see lost-create.ts), or undefined when it made none. When the list
   * cannot tell which token is this step's, that fails rather than guess.
   */
  private async findCreated(
    name: string,
    startedAt: number,
    failure: string,
  ): Promise<TokenRecord | undefined> {
    const { log } = this.options
    log.info(`${failure}. The token may have been created all the same: checking the list.`)
    let tokens: TokenRecord[]
    try {
      tokens = await this.listTokens()
    } catch (error) {
      const why = messageOf(error)
      throw new RequestError(
        `${failure}; whether token '${name}' was created is unknown, as listing the tokens failed too: ${why} Look for it before running again.`,
      )
    }
    const created = findCreated(tokens, name, startedAt, (at) => this.platformTime(at))
    switch (created.found) {
      case 'none':
        log.info(`No token named '${name}' was created.`)
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
        return await this.adopted(created.token, name, failure)
    }
  }

  /** The token a lost create made, once it is sure to be usable as this step's. */
  private async adopted(token: TokenRecord, name: string, failure: string): Promise<TokenRecord> {
    if (!isUuid(token.id)) {
      throw new RequestError(
        `${failure}; a token named '${name}' was created, but its id ${JSON.stringify(truncate(token.id, 80))} is not a UUID, so the action cannot use it. Revoke it and run again.`,
      )
    }
    if (token.tokenValue === undefined) {
      // This step's token, and nobody will ever have its value: revoked at once.
      let revoked: string
      try {
        await this.revokeToken(token.id)
        revoked = 'It was revoked at once.'
      } catch (error) {
        revoked = `Revoking it at once failed too, so revoke it with operation: revoke and tokenId: ${token.id}: ${messageOf(error)}`
      }
      throw new RequestError(
        `${failure}; token ${token.id} was created, but the platform does not show its value (the answer had none, or a blank one). ${revoked}`,
      )
    }
    this.options.log.info(
      `It was: token ${token.id}, created at ${token.createdAt ?? '?'}, is this step's token.`,
    )
    return token
  }
}

/**
 * After a revoke ends this way, the token's record can tell what happened: a refusal
 * (other than 401) or an unreadable success. Not after a failed authentication, which
 * sent no revoke at all.
 */
function worthLookingUp(error: RequestError): boolean {
  const { status } = error
  if (error instanceof AuthenticationError || status === undefined || status === 401) return false
  return (status >= 200 && status <= 299) || isRefusal(status)
}
