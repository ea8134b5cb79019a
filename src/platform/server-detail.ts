// What went wrong, in words: the request, the attempt, and the server's detail, scrubbed and short.
import { oneLine, truncate } from '../shared/text.js'
import type { Answer } from './decode.js'
import { requestLine } from './endpoints.js'
import { TransportError, type HttpRequest, type SendResult } from './http.js'

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
  outcome: SendResult<Answer>,
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
