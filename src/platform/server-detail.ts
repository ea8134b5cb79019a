import { oneLine } from '../text.js'

/** The longest server detail quoted in a message. */
const MAX_DETAIL = 300

/**
 * Turns an error body into one short line for a failure message: the JSON `error`,
 * `message` or `errors` field, else the text. An HTML page (a proxy's error page) is
 * not quoted; the message says what it was instead.
 */
export function describeBody(body: string, contentType: string | undefined): string {
  const text = body.trim()
  if (text === '') return ''
  if (/html/i.test(contentType ?? '') || /^<(!doctype|html|head|body)\b/i.test(text)) {
    return 'the body was not JSON (an HTML page)'
  }
  let detail = text
  try {
    detail = jsonDetail(JSON.parse(text)) ?? text
  } catch {
    // Plain text: quoted as it is.
  }
  return shorten(detail)
}

function jsonDetail(value: unknown): string | undefined {
  if (typeof value === 'string') return value
  if (typeof value !== 'object' || value === null) return undefined
  const fields = value as Record<string, unknown>
  const parts = [
    fields.error,
    fields.message,
    fields.errors,
    fields.error_description,
    fields.detail,
  ]
    .flatMap((field): unknown[] => (Array.isArray(field) ? (field as unknown[]) : [field]))
    .map((field) => (typeof field === 'object' && field !== null ? jsonDetail(field) : field))
    .filter((field): field is string => typeof field === 'string' && field.trim() !== '')
  return parts.length > 0 ? [...new Set(parts)].join('; ') : undefined
}

/** One line, no control characters, at most MAX_DETAIL characters. */
function shorten(text: string): string {
  const line = oneLine(text)
  return line.length > MAX_DETAIL ? `${line.slice(0, MAX_DETAIL - 3)}...` : line
}
