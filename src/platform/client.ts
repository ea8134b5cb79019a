// The platform client: its API as the operations see it, the session that authenticates it, and how a refused revoke is settled.
import { AuthenticationError, FORK_HINT, isRefusal, messageOf } from '../shared/errors.js'
import { RequestError, UnknownTokenError, UnsettledRevokeError } from '../shared/errors.js'
import { findById, type RevokeOnExit, type TokenRecord } from '../shared/records.js'
import type { Clock } from '../shared/time.js'
import { CallLoop, isSuccess, type AccessTokens, type CallLoopOptions } from './call-loop.js'
import type { PlatformTime } from './call-loop.js'
import { readAccessToken, readCreated, readList, readRevoked, type AccessToken } from './api.js'
import { authEndpoint, jsonRequest, requestLine, revokePath, TOKENS_PATH } from './api.js'
import { authPathHint } from './failures.js'
import { CreateLife, type CreateContext } from './create-life.js'

/** A revoke that succeeded; `alreadyRevoked`: it was revoked before this call, which changed nothing. */
export type RevokeAnswer = { token: TokenRecord; alreadyRevoked: boolean }

/**
 * `pooled`: sent by a pool (a cleanup), so a 429 with attempts left is handed back
 * (ThrottledError). `settle`: a refusal, or a success that does not show this token revoked,
 * is settled by a list fetched after it (settleRefusals): at once, or with `later`, thrown as
 * an UnsettledRevokeError for a batch to settle all of them with one list after the last.
 */
export type RevokeOptions = { pooled?: { attemptsUsed: number }; settle?: 'now' | 'later' }

/** When its token is revoked at the end (revokeOnExit), and where its record goes as it changes. */
export type CreateOptions = { when?: RevokeOnExit; record?: CreateContext['record'] | undefined }

/** What the operations see of the platform: the client's API calls and its platform time, not close. */
export type TokenApi = Omit<PlatformClient, 'close'>

/** The call loop's parts (node:http by default) and the connection. */
export interface ClientOptions extends Omit<CallLoopOptions, 'accessTokens'> {
  baseUrl: string
  authUrl: string
  clientId: string
  clientSecret: string
}

/**
 * The platform's API: one method per call. Behind it, the call loop owns timeouts,
 * retries and failure messages, the session owns the access token, and api.ts
 * checks every answer; every secret is masked the moment it arrives.
 */
export class PlatformClient {
  private readonly loop: CallLoop

  constructor(private readonly options: ClientOptions) {
    this.loop = new CallLoop({
      ...options,
      accessTokens: new Session(() => this.authenticate(), options.clock),
    })
  }

  /**
   * POST /api/tokens. A create is not simply sent again: when an attempt fails in a way
   * that may have created the token (its answer lost), the list is checked first, and the
   * one token found there is the result (create-life.ts, which also records each change).
   */
  async createToken(name: string, { when = 'never', record }: CreateOptions = {}) {
    const body = JSON.stringify({ name })
    const request = jsonRequest('POST', this.options.baseUrl + TOKENS_PATH, body)
    const create = new CreateLife(name, when, {
      clock: this.options.clock,
      log: this.options.log,
      list: () => this.listTokens(),
      revoke: (tokenId) => this.revokeToken(tokenId),
      platformTime: this.platformTime,
      record: record ?? (() => undefined),
    })
    try {
      const token = await this.loop.call('api', request, {
        read: (answer) => readCreated(request, answer),
        onWritten: create.written,
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
    const request = jsonRequest('GET', this.options.baseUrl + TOKENS_PATH)
    return this.loop.call('api', request, { read: (answer) => readList(request, answer) })
  }

  /**
   * POST /api/tokens/{id}/revoke?tokenId={id}. Idempotent: when the platform refuses, or
   * answers with anything but this token's record, revoked, a list fetched after it tells a
   * token revoked already (success) from one that does not exist, or is still active (the
   * refusal stands): settleRefusals, at once or later (RevokeOptions.settle).
   */
  async revokeToken(tokenId: string, options: RevokeOptions = {}): Promise<RevokeAnswer> {
    const request = jsonRequest('POST', this.options.baseUrl + revokePath(tokenId))
    // Set when an attempt may have revoked it: then a revoked record is this call's doing.
    let mayHaveRevoked = false
    try {
      const token = await this.loop.call('api', request, {
        read: (answer) => readRevoked(request, answer, tokenId),
        onUncertain: () => {
          mayHaveRevoked = true
          return Promise.resolve(undefined)
        },
        ...(options.pooled && { pooled: options.pooled }),
      })
      return { token, alreadyRevoked: false }
    } catch (error) {
      // After a refusal (not a 401) or an unreadable success, the token's record can tell.
      if (!(error instanceof RequestError) || error instanceof AuthenticationError) throw error
      const status = error.status ?? 0
      if (status === 401 || !(isRefusal(status) || isSuccess('api', status))) throw error
      const unsettled = new UnsettledRevokeError(error, mayHaveRevoked)
      if (options.settle === 'later') throw unsettled
      const list = () => this.listTokens()
      const [settled = { error }] = await settleRefusals(list, [{ tokenId, unsettled }])
      if ('error' in settled) throw settled.error
      return settled
    }
  }

  /** Closes kept-alive connections so that the process can exit at once. */
  close(): void {
    this.loop.close()
  }

  /** The platform's time at a time of ours, by the Date headers of its answers so far. */
  platformTime: PlatformTime = (at) => this.loop.platformTime(at)

  /**
   * Exchanges the client credentials for an access token (docs/PLATFORM-API.md section 5).
   * A refusal points at the credentials, a 404 or 405 at authUrl's path.
   */
  private async authenticate(): Promise<AccessToken> {
    const { clientId, clientSecret: secret, authUrl } = this.options
    const endpoint = authEndpoint(authUrl)
    const request = jsonRequest('POST', endpoint, JSON.stringify({ clientId, secret }))
    try {
      return await this.loop.call('auth', request, {
        read: (answer) => readAccessToken(request, answer, this.options.clock.now()),
      })
    } catch (error) {
      if (!(error instanceof RequestError)) throw error
      const { status, message } = error
      const detail =
        status === 404 || status === 405
          ? `failed: ${message} ${authPathHint(endpoint)}`
          : isRefusal(status)
            ? `was refused: ${message} Check the clientId and clientSecret inputs. ${FORK_HINT}`
            : `failed: ${message}`
      throw new AuthenticationError(`authentication ${detail}`, status, error.transient)
    }
  }
}

/**
 * The access token of one run: obtained on first use, shared by concurrent calls (one
 * authentication for all: the auth service keeps at most 100 refresh tokens per client),
 * renewed shortly before it expires, and dropped when the API rejects it.
 */
export class Session implements AccessTokens {
  private pending: Promise<AccessToken> | undefined

  constructor(
    private readonly obtain: () => Promise<AccessToken>,
    private readonly clock: Pick<Clock, 'now'>,
  ) {}

  /** A usable access token, authenticating when there is none or it is about to expire. */
  async accessToken(): Promise<string> {
    const current = this.pending
    const token = await current
    if (token !== undefined && this.clock.now() < (token.renewAt ?? Infinity)) return token.value
    // Unless a concurrent call has already renewed it.
    if (this.pending === current || this.pending === undefined) {
      const pending = this.obtain()
      this.pending = pending
      // A failed authentication is not kept: the next call tries again.
      pending.catch(() => {
        if (this.pending === pending) this.pending = undefined
      })
    }
    return (await this.pending).value
  }

  /** Forgets a token the API rejected, unless a concurrent call has already replaced it. */
  async reject(value: string): Promise<void> {
    const current = this.pending
    const token = await current?.catch(() => undefined)
    if (token?.value === value && this.pending === current) this.pending = undefined
  }
}

/** What a refused revoke came to, once settled: a revoke after all, or the failure. */
export type Settled = RevokeAnswer | { error: RequestError }

/**
 * The one way a refused or unclear revoke is settled. Two jobs over the same tokens race: a
 * revoke of a token the other has just revoked is refused (409, or 400 or 404 on some
 * platforms). Only a list fetched after the refusal can tell that from a real refusal, and
 * one list fetched after the last of them settles them all (a list fetched at the first
 * would show the later ones still active): a revoked record is a success, this call's own
 * when an attempt may have revoked it, else someone else's (`alreadyRevoked`); no record,
 * the project has no such token; an active one, the refusal stands. When that list cannot
 * be had, every refusal stands, saying so. One result per refusal, in order.
 */
export async function settleRefusals(
  list: () => Promise<TokenRecord[]>,
  unsettled: readonly { tokenId: string; unsettled: UnsettledRevokeError }[],
): Promise<Settled[]> {
  if (unsettled.length === 0) return []
  const why = ' Whether it was revoked already could not be told: listing the tokens failed too: '
  const tokens = await list().catch((error: unknown) => why + messageOf(error))
  return unsettled.map(({ tokenId, unsettled: { refusal, mayHaveRevoked } }): Settled => {
    const { message, status } = refusal
    if (typeof tokens === 'string') return { error: new RequestError(message + tokens, status) }
    const found = findById(tokens, tokenId)
    const unknown = `no token with id ${tokenId} exists in the project: ${message}`
    if (found === undefined) return { error: new UnknownTokenError(unknown, status) }
    if (found.state === 'revoked') return { token: found, alreadyRevoked: !mayHaveRevoked }
    return { error: refusal }
  })
}
