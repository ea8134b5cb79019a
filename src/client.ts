import type { Agent } from 'node:http'
import { HttpClient } from '@actions/http-client'
import { ActionError } from './errors.js'
import { send, TransportError, type HttpRequest, type HttpResponse } from './http.js'
import type { Logger } from './logger.js'
import { toRecord, type TokenRecord } from './records.js'
import { describeBody } from './server-detail.js'
import type { SecretMasker } from './secrets.js'
import { USER_AGENT } from './version.js'

export interface ClientOptions {
  baseUrl: string
  authEndpoint: string
  clientId: string
  clientSecret: string
  timeoutMs: number
  secrets: SecretMasker
  log: Logger
}

/** A request the platform answered with an error, or answered with something unreadable. */
export class RequestError extends ActionError {
  override name = 'RequestError'

  constructor(
    message: string,
    /** The HTTP status, or undefined when no answer came. */
    readonly status?: number,
  ) {
    super(message)
  }
}

/** The calls the operations make; PlatformClient is the real one. */
export interface TokenApi {
  createToken(name: string): Promise<TokenRecord>
  listTokens(): Promise<TokenRecord[]>
  revokeToken(tokenId: string): Promise<TokenRecord>
}

const FORK_HINT =
  'Check the clientId and clientSecret inputs; note that secrets are not passed to workflows triggered from forks.'

/**
 * The platform's API: one method per call. It owns the URLs, headers, timeouts,
 * status and shape checks, and masks every secret the moment it arrives.
 */
export class PlatformClient implements TokenApi {
  private accessToken: string | undefined
  // One HttpClient per endpoint: it caches a single agent, whose protocol must match.
  // HttpClient supplies keep-alive agents that honour HTTPS_PROXY and NO_PROXY.
  private readonly authHttp = new HttpClient(USER_AGENT, [], { keepAlive: true })
  private readonly apiHttp = new HttpClient(USER_AGENT, [], { keepAlive: true })

  constructor(private readonly options: ClientOptions) {}

  /** POST /api/tokens: creates a token; the answer holds its value. */
  async createToken(name: string): Promise<TokenRecord> {
    const request = this.apiRequest('POST', '/api/tokens', JSON.stringify({ name }))
    const response = await this.call(request)
    const record = this.readRecord(request, response)
    if (record.tokenValue === undefined) {
      throw new RequestError(
        `${describe(request)} answered ${response.status} but the new token ${record.id} has no tokenValue; revoke it and try again.`,
        response.status,
      )
    }
    return record
  }

  /** GET /api/tokens: every token of the project, active and revoked. */
  async listTokens(): Promise<TokenRecord[]> {
    const request = this.apiRequest('GET', '/api/tokens')
    const response = await this.call(request)
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

  /** POST /api/tokens/{id}/revoke?tokenId={id}: the id goes in both places, as the spec says. */
  async revokeToken(tokenId: string): Promise<TokenRecord> {
    const id = encodeURIComponent(tokenId)
    const request = this.apiRequest('POST', `/api/tokens/${id}/revoke?tokenId=${id}`)
    const response = await this.call(request)
    return this.readRecord(request, response)
  }

  /** Closes kept-alive connections so that the process can exit at once. */
  close(): void {
    this.authHttp.dispose()
    this.apiHttp.dispose()
  }

  private apiRequest(method: HttpRequest['method'], path: string, body?: string): HttpRequest {
    return jsonRequest(method, this.options.baseUrl + path, body)
  }

  /** Sends an API call with the access token, authenticating first when there is none. */
  private async call(request: HttpRequest): Promise<HttpResponse> {
    const accessToken = this.accessToken ?? (await this.authenticate())
    const response = await this.exchange(this.apiHttp, {
      ...request,
      headers: { ...request.headers, Authorization: `Bearer ${accessToken}` },
    })
    if (response.status < 200 || response.status > 299) {
      throw this.statusError(request, response)
    }
    return response
  }

  /**
   * Exchanges the client credentials for an access token (spec section 5): valid
   * only from a 200 answer whose access_token is a non-empty string.
   */
  private async authenticate(): Promise<string> {
    const { clientId, clientSecret } = this.options
    const request = jsonRequest(
      'POST',
      this.options.authEndpoint,
      JSON.stringify({ clientId, secret: clientSecret }),
    )
    const response = await this.exchange(this.authHttp, request)
    if (response.status !== 200) {
      const error = this.statusError(request, response)
      throw new RequestError(
        `authentication was refused: ${error.message} ${FORK_HINT}`,
        response.status,
      )
    }
    const body = this.readJson(request, response)
    const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<
      string,
      unknown
    >
    // One older platform client spells it accessToken; accepting both costs nothing.
    const token = typeof fields.access_token === 'string' ? fields.access_token : fields.accessToken
    if (typeof fields.refresh_token === 'string') this.options.secrets.add(fields.refresh_token)
    if (typeof token !== 'string' || token === '') {
      throw new RequestError(
        `authentication failed: ${describe(request)} answered 200 without an access_token.`,
        response.status,
      )
    }
    this.options.secrets.add(token)
    this.accessToken = token
    return token
  }

  /** One request and its whole answer, or a RequestError saying why there was none. */
  private async exchange(http: HttpClient, request: HttpRequest): Promise<HttpResponse> {
    const { log, timeoutMs } = this.options
    const agent: Agent = http.getAgent(request.url)
    const started = Date.now()
    try {
      const response = await send(request, agent, timeoutMs)
      log.debug(`${describe(request)} -> ${response.status} in ${Date.now() - started} ms`)
      return response
    } catch (error) {
      if (!(error instanceof TransportError)) throw error
      log.debug(`${describe(request)} -> ${error.code} in ${Date.now() - started} ms`)
      throw new RequestError(
        `${describe(request)} got no answer: ${this.options.secrets.scrub(error.message)}.`,
      )
    }
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

  /** Masks every token value in parsed records, before anything else reads them. */
  private maskTokenValues(items: unknown[]): void {
    for (const item of items) {
      if (typeof item === 'object' && item !== null && 'tokenValue' in item) {
        const value = item.tokenValue
        if (typeof value === 'string') this.options.secrets.add(value)
      }
    }
  }

  private statusError(request: HttpRequest, response: HttpResponse): RequestError {
    const detail = this.options.secrets.scrub(
      describeBody(response.body, response.headers['content-type']),
    )
    const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ''}`
    return new RequestError(
      sentence(`${describe(request)} answered ${status}${detail ? `: ${detail}` : ''}`),
      response.status,
    )
  }
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
