// Authentication and the session: client credentials exchanged once for an access token, shared and renewed.
import { FORK_HINT } from '../shared/errors.js'
import type { AccessTokens, CallLoop } from './call-loop.js'
import { readAccessToken, type AccessToken } from './decode.js'
import { authEndpoint, jsonRequest } from './endpoints.js'
import { AuthenticationError, isRefusal, RequestError } from './errors.js'
import { authPathHint } from './hints.js'

export interface Credentials {
  clientId: string
  clientSecret: string
  /** The auth service's base URL, or its token endpoint (see authEndpoint). */
  authUrl: string
}

/**
 * The access token of one run: obtained on first use, shared by concurrent calls
 * (one authentication for all: the auth service keeps at most 100 refresh tokens
 * per client), renewed shortly before it expires, and dropped when the API rejects it.
 */
export class Session implements AccessTokens {
  private pending: Promise<AccessToken> | undefined

  constructor(
    private readonly obtain: () => Promise<AccessToken>,
    private readonly now: () => number,
  ) {}

  /** A usable access token, authenticating when there is none or it is about to expire. */
  async accessToken(): Promise<string> {
    const current = this.pending
    if (current !== undefined) {
      const token = await current
      if (token.renewAt === undefined || this.now() < token.renewAt) return token.value
      if (this.pending === current) this.pending = undefined
    }
    this.pending ??= this.start()
    return (await this.pending).value
  }

  /** Forgets a token the API rejected, unless a concurrent call has already replaced it. */
  async reject(value: string): Promise<void> {
    const current = this.pending
    const token = await current?.catch(() => undefined)
    if (token?.value === value && this.pending === current) this.pending = undefined
  }

  private start(): Promise<AccessToken> {
    const pending = this.obtain()
    // A failed authentication is not kept: the next call tries again.
    pending.catch(() => {
      if (this.pending === pending) this.pending = undefined
    })
    return pending
  }
}

/**
 * Exchanges the client credentials for an access token (docs/PLATFORM-API.md section 5).
 * A refusal points at the credentials; any other failure says what happened.
 */
export async function authenticate(
  loop: CallLoop,
  { clientId, clientSecret, authUrl }: Credentials,
  now: () => number,
): Promise<AccessToken> {
  const endpoint = authEndpoint(authUrl)
  const request = jsonRequest('POST', endpoint, JSON.stringify({ clientId, secret: clientSecret }))
  try {
    return await loop.call('auth', request, {
      read: (answer) => readAccessToken(request, answer, now()),
    })
  } catch (error) {
    if (!(error instanceof RequestError)) throw error
    if (error.status === 404 || error.status === 405) {
      throw new AuthenticationError(
        `authentication failed: ${error.message} ${authPathHint(endpoint)}`,
        error.status,
      )
    }
    if (isRefusal(error.status)) {
      throw new AuthenticationError(
        `authentication was refused: ${error.message} Check the clientId and clientSecret inputs. ${FORK_HINT}`,
        error.status,
      )
    }
    throw new AuthenticationError(
      `authentication failed: ${error.message}`,
      error.status,
      error.transient,
    )
  }
}
