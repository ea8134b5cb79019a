// One exchange on node:http (a deadline from connect to last byte) and the transport on top; a request that got no answer, in words: Node's and OpenSSL's failures, the kind of each (may it pass, what to check), whether the request left.
// Default imports: the module objects, looked up at call time, so that test doubles
// that patch `request` (nock) see our calls; a namespace import copies it at load.
import http from 'node:http'
import https from 'node:https'
import { HttpClient } from '@actions/http-client'
import { formatBytes, oneLine } from '../shared/text.js'
// Read when the bundle is built: webpack keeps the version, and nothing else of the file.
import packageJson from '../../package.json' with { type: 'json' }

// Stryker disable all: the exchange is node:http's timers, agents and events, which the
// end-to-end tests check (mutated, it scored 87.8% on 2026-11-27: keep-alive, a 64 MB answer).
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
 * `signal` aborts; `onWritten` is told once the whole request is written (the server may act).
 */
type SendOptions = [timeoutMs: number, signal?: AbortSignal, onWritten?: () => void]

/** How attempts are sent: HttpTransport, or a fake in tests. */
export type Transport = Pick<HttpTransport, 'send' | 'close'>

/**
 * The real transport: keep-alive agents from @actions/http-client, which honour HTTPS_PROXY
 * and NO_PROXY, one per service (an HttpClient caches a single agent, whose protocol must match).
 */
export class HttpTransport {
  private readonly clients = { auth: keptAlive(), api: keptAlive() }

  /** Sends one attempt; throws a TransportError when no answer came. */
  send(target: Target, request: HttpRequest, ...options: SendOptions): Promise<HttpResponse> {
    return send(request, this.clients[target].getAgent(request.url), ...options)
  }

  /** Closes kept-alive connections so that the process can exit at once. */
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
      if (response !== undefined) resolve(response)
      else if (error instanceof TransportError) reject(error)
      else reject(new TransportError(...inWords(error, sent)))
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

// Stryker restore all: what a request that got no answer ran into, and its words.
const UNTRUSTED_CA = 'its certificate was issued by a CA that is not trusted'
/** Node's code for an `https://` URL whose port speaks plain HTTP. */
export const PLAIN_HTTP = 'ERR_SSL_WRONG_VERSION_NUMBER'

/** What a request that got no answer ran into: see NODE_ERRORS. */
type Kind = 'unreachable' | 'lost' | 'certificate' | 'tls'

/**
 * The Node error codes of a request that got no answer, with the action's words for most
 * (else Node's own are kept) and their kind, which decides whether the failure may pass
 * (isTransient) and what to check (transportHint): a host not reached at all (a wrong URL,
 * or a network in the way) and a connection lost may pass with time. A TLS failure does
 * not, and is not retried: a certificate that is not trusted, or not for the host (Node's
 * own words for that may suggest a flag a workflow cannot pass), and a handshake the two
 * sides cannot complete (a port that speaks plain HTTP, no TLS version in common, an alert
 * from the server) are settings, the same a second later. A connection lost during the
 * handshake is ECONNRESET, and retried.
 */
const NODE_ERRORS: Record<string, [kind: Kind, words?: string]> = {
  ECONNREFUSED: ['unreachable', 'connection refused'],
  ENOTFOUND: ['unreachable', 'host not found'],
  EAI_AGAIN: ['unreachable', 'host name lookup failed'],
  EHOSTUNREACH: ['unreachable', 'host unreachable'],
  ENETUNREACH: ['unreachable', 'network unreachable'],
  ENETDOWN: ['unreachable'],
  ECONNRESET: ['lost', 'connection reset'],
  ECONNABORTED: ['lost', 'connection aborted'],
  EPIPE: ['lost', 'connection closed while sending'],
  ETIMEDOUT: ['lost'],
  DEPTH_ZERO_SELF_SIGNED_CERT: ['certificate', 'its certificate is self-signed, and not trusted'],
  SELF_SIGNED_CERT_IN_CHAIN: [
    'certificate',
    'its certificate chain ends in a self-signed CA that is not trusted',
  ],
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: ['certificate', UNTRUSTED_CA],
  UNABLE_TO_GET_ISSUER_CERT: ['certificate', 'certificate not trusted'],
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: ['certificate', UNTRUSTED_CA],
  CERT_UNTRUSTED: ['certificate', 'certificate not trusted'],
  CERT_SIGNATURE_FAILURE: ['certificate', 'certificate not trusted'],
  CERT_HAS_EXPIRED: ['certificate', 'its certificate has expired'],
  CERT_NOT_YET_VALID: ['certificate', 'certificate not trusted'],
  ERR_TLS_CERT_ALTNAME_INVALID: ['certificate', 'its certificate is for another host name'],
  // OpenSSL's name for a first answer that is no TLS record: `HTTP/1.1 400 Bad Request`.
  [PLAIN_HTTP]: ['tls', 'the server answered in plain HTTP, not in TLS'],
  // A write that TLS refused: OpenSSL's reason names it better (inWords), when there is one.
  EPROTO: ['tls'],
}

/** The kind of a code, as NODE_ERRORS says; any other failure of OpenSSL's (ERR_SSL_*) is TLS's. */
export function kindOf(code: string): Kind | undefined {
  return NODE_ERRORS[code]?.[0] ?? (code.startsWith('ERR_SSL_') ? 'tls' : undefined)
}

// The proxy's own answer to CONNECT, in the words of the tunnel library.
const PROXY_REFUSAL = /tunneling socket could not be established, statusCode=(\d{3})/
// One error of OpenSSL's (`405D...:error:0A00010B:SSL routines:tls_validate_record_header:wrong
// version number:../deps/openssl/ssl/record/methods/tlsany_meth.c:77:`): its reason is all we keep.
const OPENSSL_ERROR = /\berror:[0-9A-F]+:[^:\n]*:[^:\n]*:([^:\n]+)/

/**
 * A TransportError's message, code and whether the request was written, for an error of
 * Node's or of the proxy tunnel's, on one line in the action's words.
 */
export function inWords(error: unknown, sent: boolean): [string, string, boolean] {
  const message = error instanceof Error ? error.message : String(error)
  // The tunnel library calls the proxy's refusal ECONNRESET, which would be retried as
  // one. A 407 is the proxy's credentials; no retry changes that.
  const proxyStatus = PROXY_REFUSAL.exec(message)?.[1]
  if (proxyStatus === '407')
    return ['the proxy answered 407 Proxy Authentication Required (EPROXY)', 'EPROXYAUTH', false]
  if (proxyStatus !== undefined)
    return [`the proxy answered ${proxyStatus} to the tunnel (EPROXY)`, 'EPROXY', false]
  const code = (error as { code?: unknown }).code
  const given = typeof code === 'string' ? code : 'EUNKNOWN'
  // OpenSSL's own words (its codes, its source paths, the line break after them) are never
  // shown, only its reason; a failed write's EPROTO says nothing, so it is named after the
  // reason, as Node names that failure elsewhere (ERR_SSL_WRONG_VERSION_NUMBER).
  const reason = OPENSSL_ERROR.exec(message)?.[1]
  const known =
    given === 'EPROTO' && reason !== undefined
      ? `ERR_SSL_${reason.toUpperCase().replaceAll(' ', '_')}`
      : given
  // Node's own words for what the table does not know, on one line all the same.
  const words =
    NODE_ERRORS[known]?.[1] ??
    (reason === undefined ? oneLine(message) : `TLS with the server failed: ${reason}`)
  // A server that speaks plain HTTP cannot have read a request sent in TLS.
  return [`${words} (${known})`, known, sent && known !== PLAIN_HTTP]
}
