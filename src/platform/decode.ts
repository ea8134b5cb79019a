// Decoding answers: a body parsed once, then checked and read into records or an access token.
import {
  isUuid,
  nameAndId,
  sameId,
  type TokenRecord,
  toRecord,
  uniqueById,
} from '../shared/records.js'
import { type HttpRequest, type HttpResponse, requestLine, type Target } from './http.js'
import { RequestError } from '../shared/errors.js'
import { truncate } from '../shared/text.js'
import { notJsonHint } from './failures.js'

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

/** One gateway token record (the create and revoke answers). */
function readRecord(request: HttpRequest, answer: Answer): TokenRecord {
  const record = toRecord(readJson(request, answer))
  if (typeof record === 'string') {
    throw new RequestError(
      `${requestLine(request)} answered ${answer.status} but the body is ${record}.`,
      answer.status,
    )
  }
  return record
}

/**
 * The revoke answer: the record of the token revoked, in state `revoked`. A success that
 * says anything else (another token's record, a state other than revoked) is not taken
 * for one: the revoke is then settled from the list (settle-revoke.ts).
 */
export function readRevoked(request: HttpRequest, answer: Answer, tokenId: string): TokenRecord {
  const record = readRecord(request, answer)
  if (!sameId(record.id, tokenId)) {
    throw new RequestError(
      `${requestLine(request)} answered ${answer.status} with the record of another token, ${nameAndId(record)}.`,
      answer.status,
    )
  }
  if (record.state !== 'revoked') {
    throw new RequestError(
      `${requestLine(request)} answered ${answer.status} with the token in state ${JSON.stringify(truncate(record.state, 40))}, not revoked.`,
      answer.status,
    )
  }
  return record
}

/** The create answer: a record whose id can go into a URL (the post step revokes by it). */
export function readCreated(request: HttpRequest, answer: Answer): TokenRecord {
  const record = readRecord(request, answer)
  if (!isUuid(record.id)) {
    throw new RequestError(
      `${requestLine(request)} answered ${answer.status} but the new token's id ${JSON.stringify(truncate(record.id, 80))} is not a UUID, so the action cannot use it; look for the token with operation: list.`,
      answer.status,
    )
  }
  if (record.tokenValue === undefined) {
    throw new RequestError(
      `${requestLine(request)} answered ${answer.status} but the new token ${record.id} has no tokenValue; revoke it and try again.`,
      answer.status,
    )
  }
  return record
}

/** The list answer: an array of records, one per id. */
export function readList(request: HttpRequest, answer: Answer): TokenRecord[] {
  const body = readJson(request, answer)
  if (!Array.isArray(body)) {
    throw new RequestError(
      `${requestLine(request)} answered ${answer.status} but the body is not a list of tokens.`,
      answer.status,
    )
  }
  const records = body.map((item: unknown, index) => {
    const record = toRecord(item)
    if (typeof record === 'string') {
      throw new RequestError(
        `${requestLine(request)} answered ${answer.status} but item ${index} of the list is ${record}.`,
        answer.status,
      )
    }
    return record
  })
  return uniqueById(records)
}

/**
 * The token endpoint's answer (section 5): valid only from a 200 answer whose
 * access_token is a non-empty string.
 */
export function readAccessToken(request: HttpRequest, answer: Answer, now: number): AccessToken {
  const body = readJson(request, answer, 'auth')
  const fields = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>
  // One older platform client spells it accessToken; accepting both costs nothing.
  const value = typeof fields.access_token === 'string' ? fields.access_token : fields.accessToken
  if (typeof value !== 'string' || value === '') {
    throw new RequestError(
      `${requestLine(request)} answered 200 without an access_token.`,
      answer.status,
    )
  }
  // Sent as `Authorization: Bearer <token>`: a line break, NUL or non-ASCII character
  // there would make every API call fail (or split the header), so it fails here.
  if (!HEADER_SAFE.test(value)) {
    throw new RequestError(
      `${requestLine(request)} answered 200 but its access_token cannot be sent as a header value: it holds characters other than visible ASCII.`,
      answer.status,
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
 * the message names the input.
 */
function readJson(request: HttpRequest, answer: Answer, target: Target = 'api'): unknown {
  if (answer.json === NOT_JSON) {
    const page = /html/i.test(answer.headers['content-type'] ?? '') ? 'a web page' : 'a body'
    throw new RequestError(
      `${requestLine(request)} answered ${answer.status} with ${page} that is not JSON.${notJsonHint(request, target)}`,
      answer.status,
    )
  }
  return answer.json
}
