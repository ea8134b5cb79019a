// Small text helpers for messages: one line, cut to a length, counted tokens.

// C0 and C1 control characters, DEL included.
// eslint-disable-next-line no-control-regex
export const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/
const CONTROL_OR_SPACE = new RegExp(`(?:${CONTROL_CHARACTER.source}|\\s)+`, 'g')

/**
 * Text from the platform on one line. A line break in a name or an error detail
 * could otherwise start a line with `::` and be read by the runner as a command.
 */
export function oneLine(value: string): string {
  return value.replace(CONTROL_OR_SPACE, ' ').trim()
}

/**
 * At most `max` characters: a longer text is cut and ends with `...`. The cut never
 * splits a surrogate pair, which would leave half a character (shown as U+FFFD).
 */
export function truncate(value: string, max: number): string {
  if (value.length <= max) return value
  let end = Math.max(0, max - 3)
  if (end > 0 && isHighSurrogate(value.charCodeAt(end - 1))) end--
  return `${value.slice(0, end)}...`
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff
}

/** `1 token`, `2 tokens`. */
export function countTokens(count: number): string {
  return `${count} token${count === 1 ? '' : 's'}`
}
