// The requests the action sends (the platform's addresses, the headers), one exchange on node:http with a deadline from connect to last byte, and the transport on top.
// Default imports: the module objects, looked up at call time, so that test doubles
// that patch `request` (nock) see our calls; a namespace import copies it at load.
import http from 'node:http'
import https from 'node:https'
import { HttpClient } from '@actions/http-client'
import { truncate } from '../shared/text.js'
import { isUuid } from '../shared/records.js'
import { RequestError } from '../shared/errors.js'

/** The action's version, kept equal to package.json's by a test, and the User-Agent it sends. */
export const VERSION = '0.1.0'
export const USER_AGENT = `gateway-token-action/${VERSION}`

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
    /** The Node error code (`ECONNRESET`, `ETIMEDOUT`, ...). */
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

/** Sends one attempt; throws a TransportError when no answer came. A fake in tests. */
export interface Transport {
  /**
   * Sends within `timeoutMs`, connect to last byte; cut off (CUT_OFF) when `signal`
   * aborts. `onWritten` is called once the whole request is written: from then on the
   * server may act on it.
   */
  send(
    target: Target,
    request: HttpRequest,
    timeoutMs: number,
    signal?: AbortSignal,
    onWritten?: () => void,
  ): Promise<HttpResponse>
  /** Closes kept-alive connections so that the process can exit at once. */
  close(): void
}

/**
 * The real transport: keep-alive agents from @actions/http-client, which honour
 * HTTPS_PROXY and NO_PROXY, one per service (an HttpClient caches a single agent,
 * whose protocol must match).
 */
export class HttpTransport implements Transport {
  private readonly clients = {
    auth: new HttpClient(USER_AGENT, [], { keepAlive: true }),
    api: new HttpClient(USER_AGENT, [], { keepAlive: true }),
  }

  send(
    target: Target,
    request: HttpRequest,
    timeoutMs: number,
    signal?: AbortSignal,
    onWritten?: () => void,
  ): Promise<HttpResponse> {
    const agent = this.clients[target].getAgent(request.url)
    return send(request, agent, timeoutMs, signal, onWritten)
  }

  close(): void {
    this.clients.auth.dispose()
    this.clients.api.dispose()
  }
}

// A list of 10,000 tokens is about 7 MB; anything far larger is not an answer to read.
const MAX_BODY_BYTES = 64 * 1024 * 1024

const DESCRIPTIONS: Record<string, string> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection closed while sending',
  ENOTFOUND: 'host not found',
  EAI_AGAIN: 'host name lookup failed',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ECONNABORTED: 'connection aborted',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'its certificate is self-signed, and not trusted',
  SELF_SIGNED_CERT_IN_CHAIN: 'its certificate chain ends in a self-signed CA that is not trusted',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'its certificate was issued by a CA that is not trusted',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'its certificate was issued by a CA that is not trusted',
  CERT_HAS_EXPIRED: 'its certificate has expired',
  ERR_TLS_CERT_ALTNAME_INVALID: 'its certificate is for another host name',
}

/**
 * Sends one request and reads the whole answer, all within `timeoutMs`: connecting,
 * waiting for the status line and reading the body share one deadline, so a server
 * that accepts the connection and never answers (or answers a byte at a time) is cut off.
 * So is a request whose `signal` aborts: the step was cancelled.
 */
export function send(
  request: HttpRequest,
  agent: http.Agent,
  timeoutMs: number,
  signal?: AbortSignal,
  onWritten?: () => void,
): Promise<HttpResponse> {
  return new Promise((resolve, reject) => {
    const url = new URL(request.url)
    const transport = url.protocol === 'https:' ? https : http
    const headers = { ...request.headers }
    if (request.body !== undefined)
      headers['Content-Length'] = String(Buffer.byteLength(request.body))

    let sent = false
    let settled = false
    const finish = (outcome: () => void): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      signal?.removeEventListener('abort', cutOff)
      outcome()
    }
    const fail = (error: unknown): void => {
      finish(() => {
        reject(toTransportError(error, sent))
      })
    }

    const req = transport.request(url, { method: request.method, headers, agent })
    const timer = setTimeout(() => {
      const seconds = timeoutMs / 1000
      const error = new TransportError(`no answer within ${seconds} s (timeout)`, 'ETIMEDOUT', sent)
      fail(error)
      req.destroy(error)
    }, timeoutMs)
    const cutOff = (): void => {
      const error = new TransportError('cut off: the step was cancelled', CUT_OFF, sent)
      fail(error)
      req.destroy(error)
    }
    if (signal?.aborted === true) cutOff()
    else signal?.addEventListener('abort', cutOff, { once: true })

    req.on('error', fail)
    // Written whole, and handed to the connection: TLS and the connect are behind it.
    req.on('finish', () => {
      sent = true
      onWritten?.()
    })
    req.on('response', (res) => {
      let chunks: Buffer[] = []
      let size = 0
      res.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (size > MAX_BODY_BYTES) {
          const error = new TransportError('answer larger than 64 MiB', 'EMSGSIZE', true)
          fail(error)
          req.destroy(error)
          return
        }
        chunks.push(chunk)
      })
      res.on('error', fail)
      res.on('end', () => {
        const body = Buffer.concat(chunks, size).toString('utf8')
        // Let go of the bytes now, not when the answer is: a long list then goes on as text only.
        chunks = []
        finish(() => {
          resolve({
            status: res.statusCode ?? 0,
            statusText: res.statusMessage ?? '',
            headers: res.headers,
            body,
          })
        })
      })
    })
    req.end(request.body)
  })
}

function toTransportError(error: unknown, sent: boolean): TransportError {
  if (error instanceof TransportError) return error
  const code = (error as { code?: unknown }).code
  const message = error instanceof Error ? error.message : String(error)
  // The proxy's own answer to CONNECT: the tunnel library calls it ECONNRESET, and it would
  // be retried as one. A 407 is the proxy's credentials; no retry changes that.
  const proxyStatus = /tunneling socket could not be established, statusCode=(\d{3})/.exec(
    message,
  )?.[1]
  if (proxyStatus !== undefined) {
    return new TransportError(
      proxyStatus === '407'
        ? 'the proxy answered 407 Proxy Authentication Required (EPROXY)'
        : `the proxy answered ${proxyStatus} to the tunnel (EPROXY)`,
      proxyStatus === '407' ? 'EPROXYAUTH' : 'EPROXY',
      false,
    )
  }
  const known = typeof code === 'string' ? code : 'EUNKNOWN'
  // A certificate Node does not trust: its own text may suggest a flag a workflow cannot pass.
  const description =
    DESCRIPTIONS[known] ?? (TLS_TRUST.has(known) ? 'certificate not trusted' : message)
  return new TransportError(`${description} (${known})`, known, sent)
}

/** What Node says of a certificate it does not trust, or that is not for the host. */
export const TLS_TRUST = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'ERR_TLS_CERT_ALTNAME_INVALID',
])

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
 * (section 4.4). Only a UUID goes into the URL: an id from the platform such as `..`
 * or `a/b` would send the request somewhere else.
 */
export function revokePath(tokenId: string): string {
  if (!isUuid(tokenId)) {
    throw new RequestError(
      `the token id ${JSON.stringify(truncate(tokenId, 80))} is not a UUID, so it was not sent in a URL; nothing was revoked.`,
    )
  }
  const id = encodeURIComponent(tokenId)
  return `/api/tokens/${id}/revoke?tokenId=${id}`
}

/** A request with the JSON headers every call sends. */
export function jsonRequest(
  method: HttpRequest['method'],
  url: string,
  body?: string,
): HttpRequest {
  const headers: Record<string, string> = { Accept: 'application/json', 'User-Agent': USER_AGENT }
  if (body === undefined) return { method, url, headers }
  return { method, url, headers: { ...headers, 'Content-Type': 'application/json' }, body }
}

/** `METHOD url`, for messages and debug lines. URLs carry no credentials (inputs refuse them). */
export function requestLine(request: Pick<HttpRequest, 'method' | 'url'>): string {
  return `${request.method} ${request.url}`
}
