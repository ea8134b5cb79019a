// The platform client: create, list and revoke, with recovery after a lost create and idempotent revokes.
import { systemClock, type Clock } from '../shared/clock.js'
import { Deadline } from '../shared/deadline.js'
import type { Logger } from '../shared/logger.js'
import { findById, type TokenRecord } from '../shared/records.js'
import type { SecretMasker } from '../shared/secrets.js'
import { authenticate, Session } from './auth.js'
import { CallLoop } from './call-loop.js'
import { readCreated, readList, readRevoked } from './decode.js'
import { FollowedCreate } from './lost-create.js'
import { jsonRequest, requestLine, revokePath, TOKENS_PATH } from './endpoints.js'
import { AuthenticationError, isRefusal, RequestError, UnsettledRevokeError } from './errors.js'
import { HttpTransport, type HttpRequest, type Transport } from './http.js'
import { DEFAULT_BACKOFF, type Backoff } from './retry.js'
import { settleRevoke } from './settle-revoke.js'
import type { CreateOptions, RevokeOptions, RevokeAnswer, TokenApi } from './token-api.js'

export interface ClientOptions {
  baseUrl: string
  /** The auth service's base URL, or its token endpoint, without a trailing `/` (see authEndpoint). */
  authUrl: string
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
  private readonly deadline: Deadline

  constructor(private readonly options: ClientOptions) {
    this.clock = options.clock ?? systemClock
    this.transport = options.transport ?? new HttpTransport()
    this.deadline = options.deadline ?? new Deadline(this.clock, 0)
    this.loop = new CallLoop({
      transport: this.transport,
      timeoutMs: options.timeoutMs,
      deadline: this.deadline,
      retries: options.retries,
      secrets: options.secrets,
      log: options.log,
      clock: this.clock,
      backoff: options.backoff ?? DEFAULT_BACKOFF,
      accessTokens: (loop) => {
        const now = () => this.clock.now()
        return new Session(() => authenticate(loop, options, now), now)
      },
    })
  }

  /**
   * POST /api/tokens. A create is not simply sent again: when an attempt fails in a
   * way that may have created the token (its answer lost), the list is checked first,
   * and the one token found there is the result (lost-create.ts, which also saves what
   * is learnt for the post step).
   */
  async createToken(name: string, { save }: CreateOptions = {}): Promise<TokenRecord> {
    const request = this.apiRequest('POST', TOKENS_PATH, JSON.stringify({ name }))
    const create = new FollowedCreate(name, {
      clock: this.clock,
      log: this.options.log,
      list: () => this.listTokens(),
      revoke: (tokenId) => this.revokeToken(tokenId),
      platformTime: (at) => this.platformTime(at),
      save: save ?? (() => undefined),
      postStepLooks: save !== undefined,
    })
    try {
      const token = await this.loop.call('api', request, {
        read: (answer) => readCreated(request, answer),
        onWritten: () => {
          create.written()
        },
        onUncertain: (failure) => create.afterLostAnswer(failure),
      })
      return await create.accept(token, requestLine(request))
    } catch (error) {
      create.failed(error)
      throw error
    }
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
  async revokeToken(tokenId: string, options: RevokeOptions = {}): Promise<RevokeAnswer> {
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
