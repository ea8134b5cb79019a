// The requests the action sends (the platform's addresses, the headers), one exchange on node:http with a deadline from connect to last byte, and the transport on top.
// Default imports: the module objects, looked up at call time, so that test doubles
// that patch `request` (nock) see our calls; a namespace import copies it at load.
import http from 'node:http'
import https from 'node:https'
import { HttpClient } from '@actions/http-client'
import { formatBytes, quote } from '../shared/text.js'
import { isUuid } from '../shared/records.js'
import { RequestError } from '../shared/errors.js'
import { inWords } from './no-answer.js'
// Read when the bundle is built: webpack keeps the version, and nothing else of the file.
import packageJson from '../../package.json' with { type: 'json' }

/** The User-Agent the action sends: its name and the version of package.json. */
export const USER_AGENT = `gateway-token-action/${packageJson.version}`

export interface HttpRequest {
  method: 'GET' | 'POST'
  url: string
  headers: Record<string, string>
  body?: string
}

export interface HttpResponse {
  status: number
  statusText: string
  headers: http.IncomingHttpHeaders
  body: string
}

/** A request that got no HTTP answer: refused, reset, unknown host, timed out, TLS failure. */
export class TransportError extends Error {
  override name = 'TransportError'

  constructor(
    message: string,
    /** The Node error code (`ECONNRESET`, `ETIMEDOUT`, ...), or the action's own. */
    readonly code: string,
    /** True once the whole request was written: the server may have acted on it. */
    readonly requestSent: boolean,
  ) {
    super(message)
  }
}

/** What one attempt came to: an answer, or no answer. */
export type SendResult<A extends HttpResponse = HttpResponse> = A | TransportError

/** Which of the platform's two services a request goes to. */
export type Target = 'auth' | 'api'

/** The code of a TransportError for a request cut off by its signal: the step was cancelled. */
export const CUT_OFF = 'ECANCELED'

/**
 * How one attempt is sent: within `timeoutMs`, connect to last byte; cut off (CUT_OFF) when
 * `signal` aborts; `onWritten` is called once the whole request is written: from then on
 * the server may act on it.
 */
type SendOptions = [timeoutMs: number, signal?: AbortSignal, onWritten?: () => void]

/** Sends one attempt; throws a TransportError when no answer came. A fake in tests. */
export interface Transport {
  send(target: Target, request: HttpRequest, ...options: SendOptions): Promise<HttpResponse>
  /** Closes kept-alive connections so that the process can exit at once. */
  close(): void
}

/**
 * The real transport: keep-alive agents from @actions/http-client, which honour
 * HTTPS_PROXY and NO_PROXY, one per service (an HttpClient caches a single agent,
 * whose protocol must match).
 */
export class HttpTransport implements Transport {
  private readonly clients = { auth: keptAlive(), api: keptAlive() }

  send(target: Target, request: HttpRequest, ...options: SendOptions): Promise<HttpResponse> {
    return send(request, this.clients[target].getAgent(request.url), ...options)
  }

  close(): void {
    for (const client of Object.values(this.clients)) client.dispose()
  }
}

function keptAlive(): HttpClient {
  return new HttpClient(USER_AGENT, [], { keepAlive: true })
}

// A list of 10,000 tokens is about 7 MB; anything far larger is not an answer to read.
const MAX_BODY_BYTES = 64 * 1024 * 1024

/**
 * Sends one request and reads the whole answer, all within `timeoutMs`: connecting,
 * waiting for the status line and reading the body share one deadline, so a server
 * that accepts the connection and never answers (or answers a byte at a time) is cut off.
 * So is a request whose `signal` aborts: the step was cancelled.
 */
export function send(
  request: HttpRequest,
  agent: http.Agent,
  ...[timeoutMs, signal, onWritten]: SendOptions
): Promise<HttpResponse> {
  return new Promise((resolve, reject) => {
    const url = new URL(request.url)
    const { method, headers } = request
    // end(body) sends it with its Content-Length.
    const req = (url.protocol === 'https:' ? https : http).request(url, { method, headers, agent })
    let sent = false
    // The first of the answer, an error, the timeout and the cancel settles the promise;
    // what comes after (the error of a request destroyed, say) changes nothing.
    const finish = (error: unknown, response?: HttpResponse): void => {
      clearTimeout(timer)
      signal?.removeEventListener('abort', cutOff)
      if (response === undefined) reject(toTransportError(error, sent))
      else resolve(response)
    }
    const stop = (message: string, code: string): void => {
      const error = new TransportError(message, code, sent)
      finish(error)
      req.destroy(error)
    }
    const timer = setTimeout(() => {
      stop(`no answer within ${timeoutMs / 1000} s (timeout)`, 'ETIMEDOUT')
    }, timeoutMs)
    const cutOff = (): void => {
      stop('cut off: the step was cancelled', CUT_OFF)
    }
    if (signal?.aborted === true) cutOff()
    else signal?.addEventListener('abort', cutOff, { once: true })

    req.on('error', finish)
    // Written whole, and handed to the connection: TLS and the connect are behind it.
    req.on('finish', () => {
      sent = true
      onWritten?.()
    })
    req.on('response', (res) => {
      sent = true // An answer came: the server had the request.
      let chunks: Buffer[] = []
      let size = 0
      res.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size > MAX_BODY_BYTES)
          stop(`answer larger than ${formatBytes(MAX_BODY_BYTES)}`, 'EMSGSIZE')
        else chunks.push(chunk)
      })
      res.on('error', finish)
      res.on('end', () => {
        const body = Buffer.concat(chunks, size).toString('utf8')
        // Let go of the bytes now, not when the answer is: a long list then goes on as text only.
        chunks = []
        const { statusCode: status = 0, statusMessage: statusText = '' } = res
        finish(undefined, { status, statusText, headers: res.headers, body })
      })
    })
    req.end(request.body)
  })
}

function toTransportError(error: unknown, sent: boolean): TransportError {
  return error instanceof TransportError ? error : new TransportError(...inWords(error, sent))
}

/** The token endpoint under the auth service's base URL (section 4.1). */
export const AUTH_PATH = '/idp/identity/resources/auth/v2/api-token'

/**
 * The full URL of the token endpoint, from authUrl (trailing `/` trimmed by the input
 * reader). Deployments differ in the path prefix, so a URL that already names the
 * endpoint (ends in `/api-token`) is used as it is.
 */
export function authEndpoint(authUrl: string): string {
  return authUrl.endsWith('/api-token') ? authUrl : authUrl + AUTH_PATH
}

/** Create (POST) and list (GET): section 4.2 and 4.3. */
export const TOKENS_PATH = '/api/tokens'

/**
 * Revoke: the id as a path segment and as the query parameter tokenId, both sent
 * (section 4.4). Only a UUID goes into the URL (where it needs no escaping): an id from
 * the platform such as `..` or `a/b` would send the request somewhere else.
 */
export function revokePath(tokenId: string): string {
  if (!isUuid(tokenId))
    throw new RequestError(
      `the token id ${quote(tokenId)} is not a UUID, so it was not sent in a URL; nothing was revoked.`,
    )
  return `${TOKENS_PATH}/${tokenId}/revoke?tokenId=${tokenId}`
}

/** A request with the JSON headers every call sends. */
export function jsonRequest(method: 'GET' | 'POST', url: string, body?: string): HttpRequest {
  const headers = { Accept: 'application/json', 'User-Agent': USER_AGENT }
  if (body === undefined) return { method, url, headers }
  return { method, url, headers: { ...headers, 'Content-Type': 'application/json' }, body }
}

/** `METHOD url`, for messages and debug lines. URLs carry no credentials (inputs refuse them). */
export function requestLine(request: Pick<HttpRequest, 'method' | 'url'>): string {
  return `${request.method} ${request.url}`
}
