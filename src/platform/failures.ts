// What a failure is: whether it may pass (retry), or may have taken effect, how long to wait, how it is put in words, and what to check.
import { isLoopback, oneLine, truncate } from '../shared/text.js'
import { AUTH_PATH, NOT_JSON, parseJson, requestLine, TOKENS_PATH } from './api.js'
import { kindOf, PLAIN_HTTP, TransportError } from './http.js'
import type { HttpRequest, HttpResponse, SendResult, Target } from './http.js'

/**
 * How long to wait between attempts: the first retry waits between half of baseDelayMs
 * and all of it; no backoff step waits longer than maxDelayMs; a Retry-After longer
 * than maxRetryAfterMs is cut to that.
 */
export const DEFAULT_BACKOFF = { baseDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 }

/** Statuses that say "not now" rather than "no". */
const TRANSIENT_STATUSES = new Set([408, 429, 500, 502, 503, 504])

/**
 * Whether a failure may pass when the request is sent again: one of the statuses above,
 * or no answer because the host could not be reached or the connection was lost (resets,
 * refusals, DNS failures, timeouts). Not TLS, a certificate or a handshake: no retry
 * changes either (NODE_ERRORS says why).
 */
export function isTransient(outcome: SendResult): boolean {
  if (!(outcome instanceof TransportError)) return TRANSIENT_STATUSES.has(outcome.status)
  const kind = kindOf(outcome.code)
  return kind === 'unreachable' || kind === 'lost'
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
export function backoffDelay(retry: number, jitter: number, backoff = DEFAULT_BACKOFF): number {
  const ceiling = Math.min(backoff.maxDelayMs, backoff.baseDelayMs * 2 ** (retry - 1))
  return Math.round(ceiling / 2 + (jitter * ceiling) / 2)
}

/**
 * The wait a Retry-After header asks for, in milliseconds: delta-seconds, or an
 * HTTP-date read against the answer's own Date header (so that a skewed runner
 * clock does not matter) or else against `now`. Capped; undefined when absent or
 * unreadable.
 */
export function retryAfterDelay(headers: HttpResponse['headers'], now: number): number | undefined {
  const value = headers['retry-after']?.trim() ?? ''
  // Whole seconds, as RFC 9110 writes them, or with a fraction, as some gateways send them.
  if (/^\d+(?:\.\d+)?$/.test(value))
    return Math.min(Math.round(Number(value) * 1000), DEFAULT_BACKOFF.maxRetryAfterMs)
  // An HTTP-date names its day and month ("Sun, 22 Nov 2026 09:00:05 GMT").
  const at = /[a-z]/i.test(value) ? Date.parse(value) : NaN
  if (Number.isNaN(at)) return undefined
  const serverNow = Date.parse(headers.date ?? '')
  const delay = at - (Number.isNaN(serverNow) ? now : serverNow)
  return Math.min(Math.max(0, delay), DEFAULT_BACKOFF.maxRetryAfterMs)
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
/** Removes the secrets the action knows of from server text (SecretMasker.scrub). */
type Scrub = (text: string) => string
/** The fields of a JSON error body that hold its message. */
const DETAIL_FIELDS = ['error', 'message', 'errors', 'error_description', 'detail']

/**
 * Turns an error body into one short line for a failure message: the JSON `error`,
 * `message`, `errors`, `error_description` or `detail` field, else plain text as it
 * is. Secrets are scrubbed from the whole body first, and from the detail once decoded,
 * always before shortening, which could cut one into a piece that no longer matches.
 * Neither an HTML page (a proxy's error page) nor a JSON body without one of those
 * fields is quoted: the message says what it was instead, since such a body may hold
 * anything.
 */
export function describeBody(body: string, contentType: string | undefined, scrub: Scrub): string {
  // The detail is a few hundred characters at most: a huge error body is read from its start.
  const text = scrub(body.slice(0, MAX_BODY)).trim()
  if (text === '') return ''
  if (/html/i.test(contentType ?? '') || /^<(!doctype|html|head|body)\b/i.test(text))
    return 'the body was not JSON (an HTML page)'
  const json = parseJson(text)
  // Not JSON: the text as it is, shortened; but the start of a JSON body cut for its length
  // is not a message (`{"a":{"a":...` says nothing, and would fill the line).
  if (json === NOT_JSON)
    return body.length > MAX_BODY && /^[[{]/.test(text)
      ? `a JSON body of ${body.length} characters, too long to read for its message`
      : shorten(text)
  const keys =
    typeof json === 'object' && json !== null && !Array.isArray(json) ? Object.keys(json) : []
  const fields = keys.length > 0 ? ` (fields: ${keys.slice(0, 8).join(', ')})` : ''
  // Scrubbed again once decoded: a server may escape a secret (`\u002B`, `\/`) so that
  // the raw body did not show it.
  return shorten(scrub(jsonDetail(json) ?? `a JSON body without an error message${fields}`))
}

/**
 * The message fields of a JSON error body, looked for a few levels deep only: a body
 * that nests thousands of levels is an odd answer, not a reason to overflow the stack.
 */
function jsonDetail(value: unknown, depth = 0): string | undefined {
  if (typeof value === 'string') return value
  if (typeof value !== 'object' || value === null || depth >= MAX_DEPTH) return undefined
  const parts = DETAIL_FIELDS.flatMap((field) => (value as Record<string, unknown>)[field])
    .slice(0, MAX_PARTS)
    .map((part) => jsonDetail(part, depth + 1))
    .filter((part): part is string => part !== undefined && part.trim() !== '')
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
  scrub: Scrub,
): string {
  if (outcome instanceof TransportError)
    return `${requestLine(request)} got no answer${attempt && ` (${attempt})`}: ${scrub(outcome.message)}`
  const detail = describeBody(outcome.body, outcome.headers['content-type'], scrub)
  // The reason phrase is server text like the body: scrubbed, on one line, short.
  const reason = truncate(oneLine(scrub(outcome.statusText)), MAX_REASON)
  const status = `${outcome.status}${reason ? ` ${reason}` : ''}`
  const what = detail ? `: ${detail}` : ''
  if (renewed && outcome.status === 401)
    return `the access token was rejected: ${requestLine(request)} answered ${status} even after authenticating again${what}`
  // The wait it was told: what a throttled request waits, and why a cleanup may leave it.
  const told = outcome.headers['retry-after']?.trim()
  const wait = told ? `Retry-After: ${truncate(oneLine(scrub(told)), MAX_REASON)}` : ''
  const notes = [attempt, wait].filter((note) => note !== '').join(', ')
  return `${requestLine(request)} answered ${status}${notes && ` (${notes})`}${what}`
}

/** A sentence to add to a final failure that got no answer, or '' when there is nothing to say. */
export function transportHint(
  error: TransportError,
  target: Target,
  url: string,
  timeoutMs: number,
): string {
  const input = target === 'auth' ? 'authUrl' : 'baseUrl'
  const parsed = new URL(url)
  const { host, origin } = parsed
  const kind = kindOf(error.code)
  if (error.code === 'ETIMEDOUT')
    return ` The timeout input allows ${timeoutMs / 1000} s per request: raise it if the platform is this slow.`
  if (kind === 'unreachable')
    return ` Check the ${input} input (${origin}) and that the runner can reach that host: a self-hosted runner may need a firewall rule or a proxy (HTTPS_PROXY, NO_PROXY).`
  if (error.code === 'EPROXYAUTH')
    return ` Check the user name and password in HTTPS_PROXY (http://user:password@proxy:port, the special characters %-encoded), and that the proxy lets this runner reach ${host}.`
  if (error.code === 'EPROXY')
    return ` The proxy in HTTPS_PROXY would not open a tunnel to ${host}: check that it allows that host, or list the host in NO_PROXY if the runner reaches it directly.`
  if (error.code === 'ERR_TLS_CERT_ALTNAME_INVALID')
    return ` Check the ${input} input (${origin}): the host's certificate names other hosts, and TLS checks cannot be turned off.`
  // The inputs take http:// for this machine only: elsewhere, the HTTPS port is the fix.
  if (error.code === PLAIN_HTTP)
    return isLoopback(parsed)
      ? ` Check the ${input} input (${origin}): that port speaks plain HTTP, not HTTPS. For a server on this machine, http:// is allowed: http://${parsed.hostname}:${parsed.port || '443'}.`
      : ` Check the ${input} input (${origin}): that port speaks plain HTTP, so it is not the server's HTTPS port. Give the address the server answers HTTPS on (port 443 when the URL names none).`
  if (kind === 'tls')
    return ` Check the ${input} input (${origin}): the runner could not set up TLS with that server, and trying again would not change that.`
  if (kind === 'certificate')
    return ` The runner does not trust the certificate of ${host}. If it comes from a private CA, or a proxy that inspects TLS, give the runner that CA: NODE_EXTRA_CA_CERTS=/path/to/ca.pem in the environment of the job, or in the .env file of a self-hosted runner. TLS checks cannot be turned off.`
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
  if (!pathname.endsWith(TOKENS_PATH)) return ''
  return ` Nothing answers at ${origin}${pathname}: check the baseUrl input (${baseUrl}). The action adds ${TOKENS_PATH} to it: give the API's base URL with its path prefix, if it has one, like https://api.example.com or https://example.com/gateway.`
}
