// The platform's API both ways: its addresses and the requests sent to them; each answer parsed once, then checked and read into records or an access token.
import { isUuid, nameAndId, sameId, toRecord, uniqueById } from '../shared/records.js'
import type { TokenRecord } from '../shared/records.js'
import { USER_AGENT, type HttpRequest, type HttpResponse, type Target } from './http.js'
import { RequestError } from '../shared/errors.js'
import { quote } from '../shared/text.js'

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

/** An answer, its body parsed once (NOT_JSON when it is not JSON). */
export type Answer = HttpResponse & { json: unknown }
export const NOT_JSON = Symbol('not JSON')

/** Visible ASCII, no spaces: what a Bearer token may hold (RFC 6750 b64token, loosely). */
const HEADER_SAFE = /^[\x21-\x7e]+$/

/** An access token, and when to renew it (ms since the epoch; undefined: its lifetime is unknown). */
export type AccessToken = ReturnType<typeof readAccessToken>

export function parseJson(body: string): unknown {
  try {
    return JSON.parse(body) as unknown
  } catch {
    return NOT_JSON
  }
}

/** An answer that cannot be used: `what` follows `METHOD url answered STATUS`. */
function unusable(request: HttpRequest, answer: Answer, what: string): RequestError {
  return new RequestError(`${requestLine(request)} answered ${answer.status}${what}`, answer.status)
}

/** One gateway token record: the body of a create or revoke answer, or an item of a list. */
function readRecord(request: HttpRequest, answer: Answer, value: unknown, where: string) {
  const record = toRecord(value)
  if (typeof record === 'string') throw unusable(request, answer, ` but ${where} is ${record}.`)
  return record
}

/**
 * The revoke answer: the record of the token revoked, in state `revoked`. A success that
 * says anything else (another token's record, a state other than revoked) is not taken
 * for one: the revoke is then settled from a list (settleRefusals in client.ts).
 */
export function readRevoked(request: HttpRequest, answer: Answer, tokenId: string): TokenRecord {
  const record = readRecord(request, answer, readJson(request, answer), 'the body')
  if (!sameId(record.id, tokenId))
    throw unusable(request, answer, ` with the record of another token, ${nameAndId(record)}.`)
  if (record.state !== 'revoked') {
    const state = quote(record.state, 40)
    throw unusable(request, answer, ` with the token in state ${state}, not revoked.`)
  }
  return record
}

/** The create answer: a record whose id can go into a URL (the post step revokes by it). */
export function readCreated(request: HttpRequest, answer: Answer): TokenRecord {
  const record = readRecord(request, answer, readJson(request, answer), 'the body')
  if (!isUuid(record.id)) {
    const what = ` but the new token's id ${quote(record.id)} is not a UUID, so the action cannot use it; look for the token with operation: list.`
    throw unusable(request, answer, what)
  }
  if (record.tokenValue === undefined) {
    const what = ` but the new token ${record.id} has no tokenValue; revoke it and try again.`
    throw unusable(request, answer, what)
  }
  return record
}

/** The list answer: an array of records, one per id. */
export function readList(request: HttpRequest, answer: Answer): TokenRecord[] {
  const body = readJson(request, answer)
  if (!Array.isArray(body))
    throw unusable(request, answer, ' but the body is not a list of tokens.')
  const records = body.map((item: unknown, index) =>
    readRecord(request, answer, item, `item ${index} of the list`),
  )
  return uniqueById(records)
}

/**
 * The token endpoint's answer (section 5): valid only from a 200 answer (the only success
 * the call loop hands on) whose access_token is a non-empty string.
 */
export function readAccessToken(request: HttpRequest, answer: Answer, now: number) {
  // Any body but an object (null, a number, a string, a list) has none of these fields.
  const fields = (readJson(request, answer, 'auth') ?? {}) as Record<string, unknown>
  // One older platform client spells it accessToken; accepting both costs nothing.
  const value = typeof fields.access_token === 'string' ? fields.access_token : fields.accessToken
  if (typeof value !== 'string' || value === '')
    throw unusable(request, answer, ' without an access_token.')
  // Sent as `Authorization: Bearer <token>`: a line break, NUL or non-ASCII character
  // there would make every API call fail (or split the header), so it fails here.
  if (!HEADER_SAFE.test(value)) {
    const what =
      ' but its access_token cannot be sent as a header value: it holds characters other than visible ASCII.'
    throw unusable(request, answer, what)
  }
  // expires_in is in seconds in every sample; renew a little before the end.
  const lifetime = typeof fields.expires_in === 'number' ? fields.expires_in * 1000 : 0
  const renewAt = lifetime > 0 ? now + lifetime - Math.min(60_000, lifetime / 10) : undefined
  return { value, renewAt }
}

/**
 * The parsed body. A success that is not JSON is most often a web page where the API should
 * be (baseUrl, or authUrl, pointing at the web app, which answers every path with a page):
 * the message names the input to check, and what the action adds to it.
 */
function readJson(request: HttpRequest, answer: Answer, target: Target = 'api'): unknown {
  if (answer.json !== NOT_JSON) return answer.json
  const page = /html/i.test(answer.headers['content-type'] ?? '') ? 'a web page' : 'a body'
  const { origin, pathname } = new URL(request.url)
  const hint =
    target === 'auth'
      ? ` Check the authUrl input: the action posts the credentials to ${origin}${pathname}, which must be the auth service's token endpoint (authUrl plus ${AUTH_PATH}, or authUrl itself when it ends in /api-token).`
      : ` Check the baseUrl input (${origin}${pathname.slice(0, pathname.lastIndexOf(TOKENS_PATH))}): the action adds ${TOKENS_PATH} to it, so it must be the REST API's base URL, not the web app's.`
  throw unusable(request, answer, ` with ${page} that is not JSON.${hint}`)
}
