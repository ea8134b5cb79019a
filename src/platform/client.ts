import { HttpClient } from '@actions/http-client'
import { systemClock, type Clock } from '../clock.js'
import { ActionError } from '../errors.js'
import type { Logger } from '../logger.js'
import { createdTime, newestFirst, toRecord, type TokenRecord } from '../records.js'
import type { SecretMasker } from '../secrets.js'
import { USER_AGENT } from '../version.js'
import { send, TransportError, type HttpRequest, type HttpResponse } from './http.js'
import {
  backoffDelay,
  DEFAULT_BACKOFF,
  isTransient,
  mayHaveTakenEffect,
  retryAfterDelay,
  type Backoff,
  type Outcome,
} from './retry.js'
import { describeBody } from './server-detail.js'
import { Session, type AccessToken } from './session.js'

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
}

/** A revoke that succeeded, or found the token revoked already. */
export interface RevokeOutcome {
  token: TokenRecord
  alreadyRevoked: boolean
}

export interface RevokeOptions {
  /** Told of each 429 and the wait it brings, so that a batch can slow down. */
  onThrottle?(delayMs: number): void
}

/** The calls the operations make; PlatformClient is the real one. */
export interface TokenApi {
  createToken(name: string): Promise<TokenRecord>
  listTokens(): Promise<TokenRecord[]>
  revokeToken(tokenId: string, options?: RevokeOptions): Promise<RevokeOutcome>
}

/** A request that failed: refused, unanswered, or answered with something unreadable. */
export class RequestError extends ActionError {
  override name = 'RequestError'

  constructor(
    message: string,
    /** The HTTP status of the last answer, or undefined when none came. */
    readonly status?: number,
  ) {
    super(message)
  }
}

const FORK_HINT =
  'Check the clientId and clientSecret inputs; note that secrets are not passed to workflows triggered from forks.'

type Target = 'auth' | 'api'

interface CallOptions<T> {
  /** Reads a successful answer; throws a RequestError when it is unreadable. */
  read(response: HttpResponse): T
  /**
   * For a call that must not simply be repeated (create): after a failure that may
   * have taken effect, finds out whether it did, and returns its result if so.
   */
  recover?(failure: string): Promise<T | undefined>
  onThrottle?(delayMs: number): void
}

/**
 * The platform's API: one method per call. It owns the URLs, headers, timeouts,
 * retries, authentication, status and shape checks, and masks every secret the
 * moment it arrives.
 */
export class PlatformClient implements TokenApi {
  private readonly clock: Clock
  private readonly backoff: Backoff
  private readonly session: Session
  // One HttpClient per endpoint: it caches a single agent, whose protocol must match.
  // HttpClient supplies keep-alive agents that honour HTTPS_PROXY and NO_PROXY.
  private readonly authHttp = new HttpClient(USER_AGENT, [], { keepAlive: true })
  private readonly apiHttp = new HttpClient(USER_AGENT, [], { keepAlive: true })
  /** Platform clock minus ours, from the Date header of the last answer; undefined until one came. */
  private platformOffset: number | undefined

  constructor(private readonly options: ClientOptions) {
    this.clock = options.clock ?? systemClock
    this.backoff = options.backoff ?? DEFAULT_BACKOFF
    this.session = new Session(
      () => this.authenticate(),
      () => this.clock.now(),
    )
  }

  /**
   * POST /api/tokens. Never creates two tokens for one call: when an attempt fails
   * in a way that may have created the token (its answer lost), the list is checked
   * for it before anything is sent again, and a token found there is the result.
   */
  async createToken(name: string): Promise<TokenRecord> {
    const request = this.apiRequest('POST', '/api/tokens', JSON.stringify({ name }))
    const startedAt = this.clock.now()
    return this.call('api', request, {
      read: (response) => {
        const record = this.readRecord(request, response)
        if (record.tokenValue === undefined) {
          throw new RequestError(
            `${describe(request)} answered ${response.status} but the new token ${record.id} has no tokenValue; revoke it and try again.`,
            response.status,
          )
        }
        return record
      },
      recover: (failure) => this.findCreated(name, startedAt, failure),
    })
  }

  /** GET /api/tokens: every token of the project, active and revoked. */
  listTokens(): Promise<TokenRecord[]> {
    const request = this.apiRequest('GET', '/api/tokens')
    return this.call('api', request, { read: (response) => this.readList(request, response) })
  }

  /**
   * POST /api/tokens/{id}/revoke?tokenId={id}: the id in both places, as the spec says.
   * Idempotent: when the platform refuses (or answers unreadably), one look at the
   * list tells a token revoked already (success) from one that does not exist.
   */
  async revokeToken(tokenId: string, options: RevokeOptions = {}): Promise<RevokeOutcome> {
    const id = encodeURIComponent(tokenId)
    const request = this.apiRequest('POST', `/api/tokens/${id}/revoke?tokenId=${id}`)
    try {
      const token = await this.call('api', request, {
        read: (response) => this.readRecord(request, response),
        ...options,
      })
      return { token, alreadyRevoked: false }
    } catch (error) {
      if (!(error instanceof RequestError) || !worthLookingUp(error.status)) throw error
      const found = (await this.listTokens()).find(
        (token) => token.id.toLowerCase() === tokenId.toLowerCase(),
      )
      if (found === undefined) {
        throw new RequestError(
          `no token with id ${tokenId} exists in the project: ${error.message}`,
          error.status,
        )
      }
      if (found.state === 'revoked') return { token: found, alreadyRevoked: true }
      throw error
    }
  }

  /** Closes kept-alive connections so that the process can exit at once. */
  close(): void {
    this.authHttp.dispose()
    this.apiHttp.dispose()
  }

  private apiRequest(method: HttpRequest['method'], path: string, body?: string): HttpRequest {
    return jsonRequest(method, this.options.baseUrl + path, body)
  }

  /**
   * One logical call: attempts until success, a failure that is not transient, or
   * `retries` retries, waiting with backoff (or as Retry-After asks) in between. A 401
   * from the API renews the access token and repeats the call, once.
   */
  private async call<T>(target: Target, request: HttpRequest, options: CallOptions<T>): Promise<T> {
    const attempts = this.options.retries + 1
    let renewed = false
    for (let attempt = 1; ; attempt++) {
      const { outcome, token } = await this.attempt(target, request)
      const response = outcome instanceof TransportError ? undefined : outcome
      if (response?.status === 401 && token !== undefined && !renewed) {
        // The access token expired or was revoked: authenticate again and repeat, once.
        renewed = true
        this.options.log.info(`${describe(request)} answered 401: authenticating again.`)
        await this.session.reject(token)
        attempt--
        continue
      }
      if (response !== undefined && isSuccess(target, response.status)) {
        try {
          return options.read(response)
        } catch (error) {
          const found =
            error instanceof RequestError ? await options.recover?.(error.message) : undefined
          if (found !== undefined) return found
          throw error
        }
      }

      const failure = this.describeFailure(request, outcome, {
        renewed,
        attempt: attempts > 1 && isTransient(outcome) ? ` (attempt ${attempt} of ${attempts})` : '',
      })
      if (options.recover !== undefined && mayHaveTakenEffect(outcome)) {
        const found = await options.recover(failure)
        if (found !== undefined) return found
      }
      if (!isTransient(outcome) || attempt >= attempts) {
        throw new RequestError(sentence(failure), response?.status)
      }
      const delay =
        (response && retryAfterDelay(response.headers, this.clock.now(), this.backoff)) ??
        backoffDelay(attempt, this.clock.random(), this.backoff)
      if (response?.status === 429) options.onThrottle?.(delay)
      this.options.log.info(`${failure}; retrying in ${(delay / 1000).toFixed(1)} s.`)
      await this.clock.sleep(delay)
    }
  }

  /** Sends one attempt, with the access token for the API. */
  private async attempt(
    target: Target,
    request: HttpRequest,
  ): Promise<{ outcome: Outcome; token?: string }> {
    let token: string | undefined
    let sent = request
    if (target === 'api') {
      token = await this.session.token()
      sent = { ...request, headers: { ...request.headers, Authorization: `Bearer ${token}` } }
    }
    const http = target === 'api' ? this.apiHttp : this.authHttp
    const started = this.clock.now()
    let outcome: Outcome
    try {
      outcome = await send(sent, http.getAgent(request.url), this.options.timeoutMs)
      this.notePlatformTime(outcome)
    } catch (error) {
      if (!(error instanceof TransportError)) throw error
      outcome = error
    }
    const result = outcome instanceof TransportError ? outcome.code : String(outcome.status)
    this.options.log.debug(`${describe(request)} -> ${result} in ${this.clock.now() - started} ms`)
    return token === undefined ? { outcome } : { outcome, token }
  }

  /**
   * Exchanges the client credentials for an access token (spec section 5): valid
   * only from a 200 answer whose access_token is a non-empty string.
   */
  private async authenticate(): Promise<AccessToken> {
    const { clientId, clientSecret, authEndpoint } = this.options
    const request = jsonRequest(
      'POST',
      authEndpoint,
      JSON.stringify({ clientId, secret: clientSecret }),
    )
    try {
      return await this.call('auth', request, {
        read: (response) => this.readAccessToken(request, response),
      })
    } catch (error) {
      if (!(error instanceof RequestError)) throw error
      if (isRefusal(error.status)) {
        throw new RequestError(
          `authentication was refused: ${error.message} ${FORK_HINT}`,
          error.status,
        )
      }
      throw new RequestError(`authentication failed: ${error.message}`, error.status)
    }
  }

  private readAccessToken(request: HttpRequest, response: HttpResponse): AccessToken {
    const body = this.readJson(request, response)
    const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<
      string,
      unknown
    >
    // One older platform client spells it accessToken; accepting both costs nothing.
    const value = typeof fields.access_token === 'string' ? fields.access_token : fields.accessToken
    if (typeof value === 'string') this.options.secrets.add(value)
    if (typeof fields.refresh_token === 'string') this.options.secrets.add(fields.refresh_token)
    if (typeof value !== 'string' || value === '') {
      throw new RequestError(
        `${describe(request)} answered 200 without an access_token.`,
        response.status,
      )
    }
    // expires_in is in seconds in every sample; renew a little before the end.
    const lifetime =
      typeof fields.expires_in === 'number' && fields.expires_in > 0 ? fields.expires_in * 1000 : 0
    const renewAt =
      lifetime > 0 ? this.clock.now() + lifetime - Math.min(60_000, lifetime / 10) : undefined
    return { value, renewAt }
  }

  /**
   * After a create whose answer was lost: lists the tokens and returns the newest
   * active one with this name created since the call began, or undefined if none was.
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
      const why = error instanceof Error ? error.message : String(error)
      throw new RequestError(
        `${failure}; whether token '${name}' was created is unknown, as listing the tokens failed too: ${why} Look for it before running again.`,
      )
    }
    // Platform time at the start, less the Date header's one-second resolution and
    // some latency; without a Date header, a wider margin for clock skew.
    const since =
      this.platformOffset === undefined
        ? startedAt - 5 * 60_000
        : startedAt + this.platformOffset - 2_000
    const [created] = newestFirst(
      tokens.filter(
        (token) =>
          token.name === name &&
          token.state === 'active' &&
          (createdTime(token) ?? -Infinity) >= since,
      ),
    )
    if (created === undefined) {
      log.info(`No token named '${name}' was created.`)
      return undefined
    }
    if (created.tokenValue === undefined) {
      throw new RequestError(
        `${failure}; token ${created.id} was created, but the list does not show its value. Revoke it and run again.`,
      )
    }
    log.info(
      `It was: token ${created.id}, created at ${created.createdAt ?? '?'}, is this step's token.`,
    )
    return created
  }

  private readJson(request: HttpRequest, response: HttpResponse): unknown {
    try {
      return JSON.parse(response.body) as unknown
    } catch {
      throw new RequestError(
        `${describe(request)} answered ${response.status} but the body is not JSON.`,
        response.status,
      )
    }
  }

  private readRecord(request: HttpRequest, response: HttpResponse): TokenRecord {
    const body = this.readJson(request, response)
    this.maskTokenValues([body])
    const record = toRecord(body)
    if (typeof record === 'string') {
      throw new RequestError(
        `${describe(request)} answered ${response.status} but the body is ${record}.`,
        response.status,
      )
    }
    return record
  }

  private readList(request: HttpRequest, response: HttpResponse): TokenRecord[] {
    const body = this.readJson(request, response)
    if (!Array.isArray(body)) {
      throw new RequestError(
        `${describe(request)} answered ${response.status} but the body is not a list of tokens.`,
        response.status,
      )
    }
    this.maskTokenValues(body)
    return body.map((item, index) => {
      const record = toRecord(item)
      if (typeof record === 'string') {
        throw new RequestError(
          `${describe(request)} answered ${response.status} but item ${index} of the list is ${record}.`,
          response.status,
        )
      }
      return record
    })
  }

  /** Masks every token value in parsed records, before anything else reads them. */
  private maskTokenValues(items: readonly unknown[]): void {
    for (const item of items) {
      if (typeof item === 'object' && item !== null && 'tokenValue' in item) {
        const value = item.tokenValue
        if (typeof value === 'string') this.options.secrets.add(value)
      }
    }
  }

  /** What went wrong: the request, which attempt, and what came back (the server's detail). */
  private describeFailure(
    request: HttpRequest,
    outcome: Outcome,
    { renewed, attempt }: { renewed: boolean; attempt: string },
  ): string {
    const { secrets } = this.options
    if (outcome instanceof TransportError) {
      return `${describe(request)} got no answer${attempt}: ${secrets.scrub(outcome.message)}`
    }
    const detail = secrets.scrub(describeBody(outcome.body, outcome.headers['content-type']))
    const status = `${outcome.status}${outcome.statusText ? ` ${outcome.statusText}` : ''}`
    const answered = `${describe(request)} answered ${status}${attempt}${detail ? `: ${detail}` : ''}`
    if (renewed && outcome.status === 401) {
      return `the access token was rejected: ${describe(request)} answered ${status} even after authenticating again${detail ? `: ${detail}` : ''}`
    }
    return answered
  }

  private notePlatformTime(response: HttpResponse): void {
    const date = response.headers.date === undefined ? NaN : Date.parse(response.headers.date)
    // The Date header is truncated to the second: the platform's time is half a second later on average.
    if (!Number.isNaN(date)) this.platformOffset = date + 500 - this.clock.now()
  }
}

/** The token endpoint answers exactly 200 on success (spec section 5); the API any 2xx. */
function isSuccess(target: Target, status: number): boolean {
  return target === 'auth' ? status === 200 : status >= 200 && status <= 299
}

/** A 4xx that says no, rather than "not now" (408, 429) or "who are you" (401). */
function isRefusal(status: number | undefined): boolean {
  return status !== undefined && status >= 400 && status <= 499 && status !== 408 && status !== 429
}

/** After a revoke ends this way, the list can tell what happened to the token. */
function worthLookingUp(status: number | undefined): boolean {
  if (status === undefined) return false
  return (status >= 200 && status <= 299) || (isRefusal(status) && status !== 401)
}

function jsonRequest(method: HttpRequest['method'], url: string, body?: string): HttpRequest {
  const headers: Record<string, string> = { Accept: 'application/json', 'User-Agent': USER_AGENT }
  if (body === undefined) return { method, url, headers }
  return { method, url, headers: { ...headers, 'Content-Type': 'application/json' }, body }
}

/** Ends a message with a full stop unless the server's detail already did. */
function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`
}

/** `METHOD url`, for messages and debug lines. URLs carry no credentials (inputs refuse them). */
function describe(request: HttpRequest): string {
  return `${request.method} ${request.url}`
}
