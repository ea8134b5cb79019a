import { HttpClient } from '@actions/http-client'
import { systemClock, type Clock } from '../clock.js'
import { ActionError, FORK_HINT } from '../errors.js'
import type { Logger } from '../logger.js'
import { createdTime, findById, newestFirst, toRecord, type TokenRecord } from '../records.js'
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
  /** Revoked before this call: this call changed nothing. */
  alreadyRevoked: boolean
}

export interface RevokeOptions {
  /** Told of each 429 and the wait it brings, so that a batch can slow down. */
  onThrottle?: (delayMs: number) => void
  /**
   * Finds a token's current record after the platform refused to revoke it. By
   * default one fresh list per refusal; a batch can share one list for all.
   */
  lookup?: (tokenId: string) => Promise<TokenRecord | undefined>
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

/** The access token could not be obtained: no API call was made. */
export class AuthenticationError extends RequestError {
  override name = 'AuthenticationError'
}

/** A revoke of a token id the project does not have. */
export class UnknownTokenError extends RequestError {
  override name = 'UnknownTokenError'
}

type Target = 'auth' | 'api'

/** An answer, its body parsed once (NOT_JSON when it is not JSON). */
interface Answer extends HttpResponse {
  json: unknown
}
const NOT_JSON = Symbol('not JSON')

interface CallOptions<T> {
  /** Reads a successful answer; throws a RequestError when it is unreadable. */
  read(answer: Answer): T
  /**
   * After a failure that may have taken effect all the same (its answer lost, or
   * unreadable), finds out whether it did; a result returned ends the call.
   */
  onUncertain?(failure: string): Promise<T | undefined>
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
   * POST /api/tokens. A create is not simply sent again: when an attempt fails in a
   * way that may have created the token (its answer lost), the list is checked first,
   * after the backoff wait, and the one token found there is the result.
   */
  async createToken(name: string): Promise<TokenRecord> {
    const request = this.apiRequest('POST', '/api/tokens', JSON.stringify({ name }))
    const startedAt = this.clock.now()
    return this.call('api', request, {
      read: (answer) => {
        const record = this.readRecord(request, answer)
        if (record.tokenValue === undefined) {
          throw new RequestError(
            `${requestLine(request)} answered ${answer.status} but the new token ${record.id} has no tokenValue; revoke it and try again.`,
            answer.status,
          )
        }
        return record
      },
      onUncertain: (failure) => this.findCreated(name, startedAt, failure),
    })
  }

  /** GET /api/tokens: every token of the project, active and revoked. */
  listTokens(): Promise<TokenRecord[]> {
    const request = this.apiRequest('GET', '/api/tokens')
    return this.call('api', request, { read: (answer) => this.readList(request, answer) })
  }

  /**
   * POST /api/tokens/{id}/revoke?tokenId={id}: the id in both places, as the spec says.
   * Idempotent: when the platform refuses (or answers unreadably), one look at the
   * token's record tells a token revoked already (success) from one that does not exist.
   */
  async revokeToken(tokenId: string, options: RevokeOptions = {}): Promise<RevokeOutcome> {
    const id = encodeURIComponent(tokenId)
    const request = this.apiRequest('POST', `/api/tokens/${id}/revoke?tokenId=${id}`)
    // Set when an attempt may have revoked it: then a revoked record is this call's doing.
    const uncertain = { mayHaveRevoked: false }
    try {
      const token = await this.call('api', request, {
        read: (answer) => this.readRecord(request, answer),
        onUncertain: () => {
          uncertain.mayHaveRevoked = true
          return Promise.resolve(undefined)
        },
        ...(options.onThrottle && { onThrottle: options.onThrottle }),
      })
      return { token, alreadyRevoked: false }
    } catch (error) {
      if (!(error instanceof RequestError) || !worthLookingUp(error)) throw error
      // A shared lookup may predate this revoke: trust it only for a plain refusal, and
      // read a fresh list when this call itself may have revoked the token.
      const fresh = (wanted: string) => this.findToken(wanted)
      const lookup = uncertain.mayHaveRevoked ? fresh : (options.lookup ?? fresh)
      let found: TokenRecord | undefined
      try {
        found = await lookup(tokenId)
      } catch {
        // The lookup is for a better answer; if it fails too, the refusal stands.
        throw error
      }
      if (found === undefined) {
        throw new UnknownTokenError(
          `no token with id ${tokenId} exists in the project: ${error.message}`,
          error.status,
        )
      }
      if (found.state === 'revoked')
        return { token: found, alreadyRevoked: !uncertain.mayHaveRevoked }
      throw error
    }
  }

  /** Closes kept-alive connections so that the process can exit at once. */
  close(): void {
    this.authHttp.dispose()
    this.apiHttp.dispose()
  }

  /** The current record of one token, from a fresh list. */
  private async findToken(tokenId: string): Promise<TokenRecord | undefined> {
    return findById(await this.listTokens(), tokenId)
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
      const answer = outcome instanceof TransportError ? undefined : outcome
      if (answer?.status === 401 && token !== undefined && !renewed) {
        // The access token expired or was revoked: authenticate again and repeat, once.
        renewed = true
        this.options.log.info(`${requestLine(request)} answered 401: authenticating again.`)
        await this.session.reject(token)
        attempt--
        continue
      }
      if (answer !== undefined && isSuccess(target, answer.status)) {
        try {
          return options.read(answer)
        } catch (error) {
          // A success that cannot be read was still a success: find out what it did.
          const found =
            error instanceof RequestError ? await options.onUncertain?.(error.message) : undefined
          if (found !== undefined) return found
          throw error
        }
      }

      const failure = this.describeFailure(request, outcome, {
        renewed,
        attempt: attempts > 1 && isTransient(outcome) ? ` (attempt ${attempt} of ${attempts})` : '',
      })
      const retrying = isTransient(outcome) && attempt < attempts
      const delay = retrying
        ? ((answer && retryAfterDelay(answer.headers, this.clock.now(), this.backoff)) ??
          backoffDelay(attempt, this.clock.random(), this.backoff))
        : 0
      if (answer?.status === 429 && retrying) options.onThrottle?.(delay)
      if (options.onUncertain !== undefined && mayHaveTakenEffect(outcome)) {
        // Wait first: a platform that failed mid-way may still be finishing the change.
        if (retrying) await this.wait(failure, delay)
        const found = await options.onUncertain(failure)
        if (found !== undefined) return found
        if (retrying) continue
      }
      if (!retrying) throw new RequestError(sentence(failure), answer?.status)
      await this.wait(failure, delay)
    }
  }

  private async wait(failure: string, delay: number): Promise<void> {
    this.options.log.info(`${failure}; retrying in ${(delay / 1000).toFixed(1)} s.`)
    await this.clock.sleep(delay)
  }

  /** Sends one attempt, with the access token for the API, and masks what comes back. */
  private async attempt(
    target: Target,
    request: HttpRequest,
  ): Promise<{ outcome: Answer | TransportError; token?: string }> {
    let token: string | undefined
    let sent = request
    if (target === 'api') {
      token = await this.session.token()
      sent = { ...request, headers: { ...request.headers, Authorization: `Bearer ${token}` } }
    }
    const http = target === 'api' ? this.apiHttp : this.authHttp
    const started = this.clock.now()
    let outcome: Answer | TransportError
    try {
      const response = await send(sent, http.getAgent(request.url), this.options.timeoutMs)
      const json = parseJson(response.body)
      // Masked on receipt, whatever the status: an error body can hold a token too.
      this.options.secrets.addFrom(json)
      // Only a failure's text is read again, for its detail: a successful list of
      // thousands of tokens is then not held both as text and as records.
      const read = json !== NOT_JSON && isSuccess(target, response.status)
      outcome = { ...response, body: read ? '' : response.body, json }
      this.notePlatformTime(outcome)
    } catch (error) {
      if (!(error instanceof TransportError)) throw error
      outcome = error
    }
    const result = outcome instanceof TransportError ? outcome.code : String(outcome.status)
    this.options.log.debug(
      `${requestLine(request)} -> ${result} in ${this.clock.now() - started} ms`,
    )
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
        read: (answer) => this.readAccessToken(request, answer),
      })
    } catch (error) {
      if (!(error instanceof RequestError)) throw error
      if (isRefusal(error.status)) {
        throw new AuthenticationError(
          `authentication was refused: ${error.message} Check the clientId and clientSecret inputs. ${FORK_HINT}`,
          error.status,
        )
      }
      throw new AuthenticationError(`authentication failed: ${error.message}`, error.status)
    }
  }

  private readAccessToken(request: HttpRequest, answer: Answer): AccessToken {
    const body = this.readJson(request, answer)
    const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<
      string,
      unknown
    >
    // One older platform client spells it accessToken; accepting both costs nothing.
    const value = typeof fields.access_token === 'string' ? fields.access_token : fields.accessToken
    if (typeof value !== 'string' || value === '') {
      throw new RequestError(
        `${requestLine(request)} answered 200 without an access_token.`,
        answer.status,
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
   * After a create whose answer was lost: lists the tokens and returns the active one
   * with this name created since the call began, or undefined if there is none. With
   * several, which one is this step's cannot be told: that fails rather than guess.
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
    // some latency; without a Date header, a margin for clock skew.
    const since =
      this.platformOffset === undefined
        ? startedAt - 60_000
        : startedAt + this.platformOffset - 2_000
    const created = newestFirst(
      tokens.filter(
        (token) =>
          token.name === name &&
          token.state === 'active' &&
          (createdTime(token) ?? -Infinity) >= since,
      ),
    )
    const [only] = created
    if (only === undefined) {
      log.info(`No token named '${name}' was created.`)
      return undefined
    }
    if (created.length > 1) {
      throw new RequestError(
        `${failure}; ${created.length} active tokens named '${name}' were created since this step began (${created.map((t) => t.id).join(', ')}), so which one is this step's cannot be told. Give each job a token name of its own; revoke the tokens you do not need.`,
      )
    }
    if (only.tokenValue === undefined) {
      throw new RequestError(
        `${failure}; token ${only.id} was created, but the list does not show its value. Revoke it and run again.`,
      )
    }
    log.info(`It was: token ${only.id}, created at ${only.createdAt ?? '?'}, is this step's token.`)
    return only
  }

  private readJson(request: HttpRequest, answer: Answer): unknown {
    if (answer.json === NOT_JSON) {
      throw new RequestError(
        `${requestLine(request)} answered ${answer.status} but the body is not JSON.`,
        answer.status,
      )
    }
    return answer.json
  }

  private readRecord(request: HttpRequest, answer: Answer): TokenRecord {
    const record = toRecord(this.readJson(request, answer))
    if (typeof record === 'string') {
      throw new RequestError(
        `${requestLine(request)} answered ${answer.status} but the body is ${record}.`,
        answer.status,
      )
    }
    return record
  }

  private readList(request: HttpRequest, answer: Answer): TokenRecord[] {
    const body = this.readJson(request, answer)
    if (!Array.isArray(body)) {
      throw new RequestError(
        `${requestLine(request)} answered ${answer.status} but the body is not a list of tokens.`,
        answer.status,
      )
    }
    return body.map((item: unknown, index) => {
      const record = toRecord(item)
      if (typeof record === 'string') {
        throw new RequestError(
          `${requestLine(request)} answered ${answer.status} but item ${index} of the list is ${record}.`,
          answer.status,
        )
      }
      return record
    })
  }

  /** What went wrong: the request, which attempt, and what came back (the server's detail). */
  private describeFailure(
    request: HttpRequest,
    outcome: Answer | TransportError,
    { renewed, attempt }: { renewed: boolean; attempt: string },
  ): string {
    const scrub = (text: string) => this.options.secrets.scrub(text)
    if (outcome instanceof TransportError) {
      return `${requestLine(request)} got no answer${attempt}: ${scrub(outcome.message)}`
    }
    const detail = describeBody(outcome.body, outcome.headers['content-type'], scrub)
    const status = `${outcome.status}${outcome.statusText ? ` ${outcome.statusText}` : ''}`
    const what = detail ? `: ${detail}` : ''
    if (renewed && outcome.status === 401) {
      return `the access token was rejected: ${requestLine(request)} answered ${status} even after authenticating again${what}`
    }
    return `${requestLine(request)} answered ${status}${attempt}${what}`
  }

  private notePlatformTime(answer: Answer): void {
    const date = answer.headers.date === undefined ? NaN : Date.parse(answer.headers.date)
    // The Date header is truncated to the second: the platform's time is half a second later on average.
    if (!Number.isNaN(date)) this.platformOffset = date + 500 - this.clock.now()
  }
}

function parseJson(body: string): unknown {
  try {
    return JSON.parse(body) as unknown
  } catch {
    return NOT_JSON
  }
}

/** The token endpoint answers exactly 200 on success (spec section 5); the API any 2xx. */
function isSuccess(target: Target, status: number): boolean {
  return target === 'auth' ? status === 200 : status >= 200 && status <= 299
}

/** A 4xx that says no, rather than "not now" (408, 429). */
function isRefusal(status: number | undefined): boolean {
  return status !== undefined && status >= 400 && status <= 499 && status !== 408 && status !== 429
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
function requestLine(request: HttpRequest): string {
  return `${request.method} ${request.url}`
}
