// What a failure is: whether it may pass (retry), or may have taken effect, how long to wait, how it is put in words, and what to check.
import type { IncomingHttpHeaders } from 'node:http'
import { oneLine, truncate } from '../shared/text.js'
import {
  AUTH_PATH,
  requestLine,
  TLS_TRUST,
  TOKENS_PATH,
  TransportError,
  type HttpRequest,
  type SendResult,
  type Target,
} from './http.js'

/** How long to wait between attempts. */
export interface Backoff {
  /** The first retry waits between half of this and this. */
  baseDelayMs: number
  /** No backoff step waits longer than this. */
  maxDelayMs: number
  /** A Retry-After longer than this is cut to this. */
  maxRetryAfterMs: number
}

export const DEFAULT_BACKOFF: Backoff = {
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
}

/** Statuses that say "not now" rather than "no". */
const TRANSIENT_STATUSES = new Set([408, 429, 500, 502, 503, 504])

/** Network failures worth another try: resets, refusals, DNS failures, timeouts. */
const TRANSIENT_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
])

export function isTransient(outcome: SendResult): boolean {
  return outcome instanceof TransportError
    ? TRANSIENT_CODES.has(outcome.code)
    : TRANSIENT_STATUSES.has(outcome.status)
}

/**
 * True when a failed request may have been carried out all the same: it was written
 * whole and no answer said what became of it. Its answer was lost (a reset, a timeout),
 * or the server failed without saying whether it acted (any 5xx: a gateway's 503 may come
 * after the platform behind it acted), or gave up on it (408). A refused connection never
 * sent it; a 4xx other than 408 says no.
 */
export function mayHaveTakenEffect(outcome: SendResult): boolean {
  if (outcome instanceof TransportError) return outcome.requestSent
  return outcome.status >= 500 || outcome.status === 408
}

/**
 * The wait before retry number `retry` (1 for the first): exponential, with equal
 * jitter so that many clients do not retry in step: between half and all of
 * base × 2^(retry-1), capped.
 */
export function backoffDelay(
  retry: number,
  jitter: number,
  backoff: Backoff = DEFAULT_BACKOFF,
): number {
  const ceiling = Math.min(backoff.maxDelayMs, backoff.baseDelayMs * 2 ** (retry - 1))
  return Math.round(ceiling / 2 + (jitter * ceiling) / 2)
}

/**
 * The wait a Retry-After header asks for, in milliseconds: delta-seconds, or an
 * HTTP-date read against the answer's own Date header (so that a skewed runner
 * clock does not matter) or else against `now`. Capped; undefined when absent or
 * unreadable.
 */
export function retryAfterDelay(
  headers: IncomingHttpHeaders,
  now: number,
  backoff: Backoff = DEFAULT_BACKOFF,
): number | undefined {
  const value = headers['retry-after']?.trim()
  if (!value) return undefined
  let delay: number
  if (/^\d+$/.test(value)) {
    delay = Number(value) * 1000
  } else {
    // An HTTP-date names its day and month ("Sun, 22 Nov 2026 09:00:05 GMT").
    const at = /[a-z]/i.test(value) ? Date.parse(value) : NaN
    if (Number.isNaN(at)) return undefined
    const serverNow = headers.date === undefined ? NaN : Date.parse(headers.date)
    delay = Math.max(0, at - (Number.isNaN(serverNow) ? now : serverNow))
  }
  return Math.min(delay, backoff.maxRetryAfterMs)
}

/** The longest reason phrase quoted (a normal one is a few words). */
const MAX_REASON = 60

/** The longest server detail quoted in a message. */
const MAX_DETAIL = 300
/** The most of an error body that is read for its detail. */
const MAX_BODY = 64 * 1024
// How deep, and how wide, a JSON error body is searched for its message.
const MAX_DEPTH = 4
const MAX_PARTS = 16

/**
 * Turns an error body into one short line for a failure message: the JSON `error`,
 * `message`, `errors`, `error_description` or `detail` field, else plain text as it
 * is. Secrets are scrubbed from the whole body first, and from the detail once decoded,
 * always before shortening, which could cut one into a piece that no longer matches. Neither an HTML page (a proxy's error
 * page) nor a JSON body without one of those fields is quoted: the message says what
 * it was instead, since such a body may hold anything.
 */
export function describeBody(
  body: string,
  contentType: string | undefined,
  scrub: (text: string) => string,
): string {
  // The detail is a few hundred characters at most: a huge error body is read from its start.
  const truncated = body.length > MAX_BODY
  const text = scrub(truncated ? body.slice(0, MAX_BODY) : body).trim()
  if (text === '') return ''
  if (/html/i.test(contentType ?? '') || /^<(!doctype|html|head|body)\b/i.test(text)) {
    return 'the body was not JSON (an HTML page)'
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    // Its start is not a message: `{"a":{"a":...` says nothing and would fill the line.
    if (truncated && /^[[{]/.test(text)) {
      return `a JSON body of ${body.length} characters, too long to read for its message`
    }
    return shorten(text)
  }
  // Scrubbed again once decoded: a server may escape a secret (`\u002B`, `\/`) so that
  // the raw body did not show it.
  const detail = jsonDetail(json)
  if (detail !== undefined) return shorten(scrub(detail))
  const fields =
    typeof json === 'object' && json !== null && !Array.isArray(json)
      ? Object.keys(json).slice(0, 8)
      : []
  return fields.length > 0
    ? shorten(`a JSON body without an error message (fields: ${fields.join(', ')})`)
    : 'a JSON body without an error message'
}

/**
 * The message fields of a JSON error body, looked for a few levels deep only: a body
 * that nests thousands of levels is an odd answer, not a reason to overflow the stack.
 */
function jsonDetail(value: unknown, depth = 0): string | undefined {
  if (typeof value === 'string') return value
  if (typeof value !== 'object' || value === null || depth >= MAX_DEPTH) return undefined
  const fields = value as Record<string, unknown>
  const parts = [
    fields.error,
    fields.message,
    fields.errors,
    fields.error_description,
    fields.detail,
  ]
    .flatMap((field): unknown[] => (Array.isArray(field) ? (field as unknown[]) : [field]))
    .slice(0, MAX_PARTS)
    .map((field) =>
      typeof field === 'object' && field !== null ? jsonDetail(field, depth + 1) : field,
    )
    .filter((field): field is string => typeof field === 'string' && field.trim() !== '')
  return parts.length > 0 ? [...new Set(parts)].join('; ') : undefined
}

/** One line, no control characters, at most MAX_DETAIL characters. */
function shorten(text: string): string {
  return truncate(oneLine(text), MAX_DETAIL)
}

/** What went wrong: the request, which attempt, and what came back (the server's detail). */
export function describeFailure(
  request: HttpRequest,
  outcome: SendResult,
  { renewed, attempt }: { renewed: boolean; attempt: string },
  scrub: (text: string) => string,
): string {
  if (outcome instanceof TransportError) {
    return `${requestLine(request)} got no answer${attempt}: ${scrub(outcome.message)}`
  }
  const detail = describeBody(outcome.body, outcome.headers['content-type'], scrub)
  // The reason phrase is server text like the body: scrubbed, on one line, short.
  const reason = truncate(oneLine(scrub(outcome.statusText)), MAX_REASON)
  const status = `${outcome.status}${reason ? ` ${reason}` : ''}`
  const what = detail ? `: ${detail}` : ''
  if (renewed && outcome.status === 401) {
    return `the access token was rejected: ${requestLine(request)} answered ${status} even after authenticating again${what}`
  }
  return `${requestLine(request)} answered ${status}${attempt}${what}`
}

// The host could not be reached at all: a wrong URL, or a network in the way.
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
])

/** A sentence to add to a final failure that got no answer, or '' when there is nothing to say. */
export function transportHint(
  error: TransportError,
  target: Target,
  url: string,
  timeoutMs: number,
): string {
  if (error.code === 'ETIMEDOUT') {
    return ` The timeout input allows ${timeoutMs / 1000} s per request: raise it if the platform is this slow.`
  }
  const input = target === 'auth' ? 'authUrl' : 'baseUrl'
  const { host, origin } = new URL(url)
  if (UNREACHABLE.has(error.code)) {
    return ` Check the ${input} input (${origin}) and that the runner can reach that host: a self-hosted runner may need a firewall rule or a proxy (HTTPS_PROXY, NO_PROXY).`
  }
  if (error.code === 'EPROXYAUTH') {
    return ` Check the user name and password in HTTPS_PROXY (http://user:password@proxy:port, the special characters %-encoded), and that the proxy lets this runner reach ${host}.`
  }
  if (error.code === 'EPROXY') {
    return ` The proxy in HTTPS_PROXY would not open a tunnel to ${host}: check that it allows that host, or list the host in NO_PROXY if the runner reaches it directly.`
  }
  if (error.code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    return ` Check the ${input} input (${origin}): the host's certificate names other hosts, and TLS checks cannot be turned off.`
  }
  if (TLS_TRUST.has(error.code)) {
    return ` The runner does not trust the certificate of ${host}. If it comes from a private CA, or a proxy that inspects TLS, give the runner that CA: NODE_EXTRA_CA_CERTS=/path/to/ca.pem in the environment of the job, or in the .env file of a self-hosted runner. TLS checks cannot be turned off.`
  }
  return ''
}

/**
 * After the token endpoint answered 404 or 405, the path is wrong, not the credentials:
 * deployments differ in the prefix before /resources/auth/v2/api-token.
 */
export function authPathHint(endpoint: string): string {
  const tail = AUTH_PATH.slice(AUTH_PATH.indexOf('/resources/'))
  return `Check the authUrl input: nothing takes credentials at ${endpoint}. Deployments differ in the path before ${tail} (/idp/identity, /frontegg/identity, /identity): set authUrl to the full endpoint URL, ending in /api-token.`
}

/**
 * After the API answered 404 where the action's own path should be: the path is wrong,
 * not the request. The action adds /api/tokens to baseUrl, so the most common mistake is
 * a baseUrl that ends in /api (`GET .../api/api/tokens`): a repeated path segment is named.
 * A 404 on /api/tokens itself (list, create) says that nothing answers there. A revoke's
 * 404 without a repeated segment is an unknown token, not a path: no hint.
 */
export function apiPathHint(request: Pick<HttpRequest, 'url'>): string {
  const { origin, pathname } = new URL(request.url)
  const at = pathname.lastIndexOf(TOKENS_PATH)
  if (at < 0) return ''
  const baseUrl = origin + pathname.slice(0, at)
  const repeated = /\/([^/]+)\/\1(?=\/)/.exec(pathname)?.[1]
  if (repeated !== undefined) {
    const advice =
      `${baseUrl}/`.endsWith(`/${repeated}/`) && `${TOKENS_PATH}/`.startsWith(`/${repeated}/`)
        ? `the action adds ${TOKENS_PATH} to it, so leave /${repeated} off its end`
        : 'check its path prefix'
    return ` Check the baseUrl input (${baseUrl}): the path repeats /${repeated}/; ${advice}.`
  }
  if (pathname.endsWith(TOKENS_PATH)) {
    return ` Nothing answers at ${origin}${pathname}: check the baseUrl input (${baseUrl}). The action adds ${TOKENS_PATH} to it: give the API's base URL with its path prefix, if it has one, like https://api.example.com or https://example.com/gateway.`
  }
  return ''
}

/**
 * After an answer that is not JSON where the API should answer: the URL most likely leads
 * to the web app, which answers every path with a page. The input to check, and what the
 * action adds to it.
 */
export function notJsonHint(request: Pick<HttpRequest, 'url'>, target: Target): string {
  const { origin, pathname } = new URL(request.url)
  if (target === 'auth') {
    return ` Check the authUrl input: the action posts the credentials to ${origin}${pathname}, which must be the auth service's token endpoint (authUrl plus ${AUTH_PATH}, or authUrl itself when it ends in /api-token).`
  }
  const at = pathname.lastIndexOf(TOKENS_PATH)
  const baseUrl = origin + (at < 0 ? pathname : pathname.slice(0, at))
  return ` Check the baseUrl input (${baseUrl}): the action adds ${TOKENS_PATH} to it, so it must be the REST API's base URL, not the web app's.`
}
