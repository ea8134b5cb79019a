// Decoding answers: a body parsed once, then checked and read into records or an access token.
import { isUuid, nameAndId, sameId, toRecord, uniqueById } from '../shared/records.js'
import type { TokenRecord } from '../shared/records.js'
import { AUTH_PATH, requestLine, TOKENS_PATH } from './http.js'
import type { HttpRequest, HttpResponse, Target } from './http.js'
import { RequestError } from '../shared/errors.js'
import { quote } from '../shared/text.js'

/** An answer, its body parsed once (NOT_JSON when it is not JSON). */
export interface Answer extends HttpResponse {
  json: unknown
}
export const NOT_JSON = Symbol('not JSON')

/** Visible ASCII, no spaces: what a Bearer token may hold (RFC 6750 b64token, loosely). */
const HEADER_SAFE = /^[\x21-\x7e]+$/

/** An access token and when to stop using it. */
export interface AccessToken {
  value: string
  /** Renew before this time (ms since the epoch); undefined when the lifetime is unknown. */
  renewAt: number | undefined
}

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
    throw unusable(
      request,
      answer,
      ` but the new token's id ${quote(record.id)} is not a UUID, so the action cannot use it; look for the token with operation: list.`,
    )
  }
  if (record.tokenValue === undefined) {
    throw unusable(
      request,
      answer,
      ` but the new token ${record.id} has no tokenValue; revoke it and try again.`,
    )
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
export function readAccessToken(request: HttpRequest, answer: Answer, now: number): AccessToken {
  const body = readJson(request, answer, 'auth')
  const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>
  // One older platform client spells it accessToken; accepting both costs nothing.
  const value = typeof fields.access_token === 'string' ? fields.access_token : fields.accessToken
  if (typeof value !== 'string' || value === '')
    throw unusable(request, answer, ' without an access_token.')
  // Sent as `Authorization: Bearer <token>`: a line break, NUL or non-ASCII character
  // there would make every API call fail (or split the header), so it fails here.
  if (!HEADER_SAFE.test(value)) {
    throw unusable(
      request,
      answer,
      ' but its access_token cannot be sent as a header value: it holds characters other than visible ASCII.',
    )
  }
  // expires_in is in seconds in every sample; renew a little before the end.
  const lifetime =
    typeof fields.expires_in === 'number' && fields.expires_in > 0 ? fields.expires_in * 1000 : 0
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
  const at = pathname.lastIndexOf(TOKENS_PATH)
  const baseUrl = origin + (at < 0 ? pathname : pathname.slice(0, at))
  const hint =
    target === 'auth'
      ? ` Check the authUrl input: the action posts the credentials to ${origin}${pathname}, which must be the auth service's token endpoint (authUrl plus ${AUTH_PATH}, or authUrl itself when it ends in /api-token).`
      : ` Check the baseUrl input (${baseUrl}): the action adds ${TOKENS_PATH} to it, so it must be the REST API's base URL, not the web app's.`
  throw unusable(request, answer, ` with ${page} that is not JSON.${hint}`)
}
