// Small text helpers for messages (one line, cut to a length, counted tokens, the first few of many, no runner commands, loopback hosts), and the Logger that prints them.

// C0 and C1 control characters, DEL included.
// eslint-disable-next-line no-control-regex
export const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/
const CONTROL_OR_SPACE = new RegExp(`(?:${CONTROL_CHARACTER.source}|\\s)+`, 'g')

/**
 * Text from the platform on one line, what cannot be seen shown. A line break in a name
 * or an error detail could otherwise start a line with `::` and be read by the runner as
 * a command; an invisible or bidirectional character could make one name look like
 * another (`prod\u202Edoc` reads as `prodcod`): those are written as `<U+202E>`.
 */
export function oneLine(value: string): string {
  return showInvisible(value).replace(CONTROL_OR_SPACE, ' ').trim()
}

// Format characters (the bidirectional controls U+202A-U+202E and U+2066-U+2069, the
// zero-width ones, the soft hyphen...) and the other default-ignorable code points: they
// show as nothing, or change how what follows is shown.
const invisible = lazyRegExp(() => /[\p{Cf}\p{Default_Ignorable_Code_Point}]/gu)

/** Whether a text is plain ASCII, which most names and messages are: a fast path. */
export function isAscii(text: string): boolean {
  // eslint-disable-next-line no-control-regex
  return /^[\x00-\x7f]*$/.test(text)
}

/** Writes each character that shows as nothing, or reorders the text, as `<U+XXXX>`. */
export function showInvisible(value: string): string {
  // Plain ASCII has none, and is not run through the Unicode classes.
  if (isAscii(value)) return value
  return value.replace(invisible(), (char) => `<U+${hex(char).toUpperCase()}>`)
}

/** A character's code point in hex, at least 4 digits: `200b`, `e0001`. */
const hex = (char: string): string => (char.codePointAt(0) ?? 0).toString(16).padStart(4, '0')

/**
 * At most `max` characters: a longer text is cut and ends with `...`. The cut never
 * splits a surrogate pair, which would leave half a character (shown as U+FFFD).
 */
export function truncate(value: string, max: number): string {
  if (value.length <= max) return value
  let end = Math.max(0, max - 3)
  // A high surrogate before the cut is stepped back over. At end 0, charCodeAt(-1) is NaN:
  // no surrogate, nothing to step back over.
  const code = value.charCodeAt(end - 1)
  if (code >= 0xd800 && code <= 0xdbff) end--
  return `${value.slice(0, end)}...`
}

/**
 * A value for a message, as a JSON string: cut to `max` characters, what shows as nothing
 * written as `<U+XXXX>`, every control character escaped (DEL and the C1 ones too, which JSON
 * leaves: U+0085 is a line break to some readers). The one way a value is quoted.
 */
export function quote(value: string, max = 80): string {
  const json = JSON.stringify(truncate(showInvisible(value), max))
  return json.replace(/[\u007f-\u009f]/g, (c) => `\\u${hex(c)}`)
}

/**
 * Whether a URL's host is this machine (`localhost`, 127.0.0.0/8, `[::1]`), where the URL
 * inputs allow http: the host as WHATWG URL writes it, so `127.1` is `127.0.0.1` and
 * look-alikes (`127.0.0.1.example.com`, `localhost.example.com`) are not.
 */
export function isLoopback(url: URL): boolean {
  return /^(?:localhost|\[::1\]|127\.\d+\.\d+\.\d+)$/.test(url.hostname)
}

/** Ends a text with a full stop, unless it ends a sentence already (`.`, `!`, `?`). */
export function asSentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`
}

/** `1 token`, `2 tokens`. */
export function countTokens(count: number): string {
  return `${count} token${count === 1 ? '' : 's'}`
}

/**
 * The first 5 of `items` joined by `separator`, then `end`, and how many more with where they
 * all are: a message names a few, never thousands.
 */
export function someOf(items: readonly string[], whereAll: string, separator = ', ', end = '.') {
  const more = items.length > 5 ? ` And ${items.length - 5} more: ${whereAll}.` : ''
  return `${items.slice(0, 5).join(separator)}${end}${more}`
}

/** A size as the runner's docs write it: `64 MiB`, `128 KiB`, `500 bytes` (the largest whole unit). */
export function formatBytes(bytes: number): string {
  if (bytes % 1_048_576 === 0) return `${bytes / 1_048_576} MiB`
  return bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`
}

/** `45d 3h`, `5h 12m`, `12m`: the two largest units. */
export function formatAge(ms: number): string {
  const minutes = Math.max(0, Math.floor(ms / 60_000))
  const days = Math.floor(minutes / 1440)
  const hours = Math.floor((minutes % 1440) / 60)
  if (days > 0) return hours > 0 ? `${days}d ${hours}h` : `${days}d`
  if (hours > 0) return `${hours}h ${minutes % 60}m`
  return `${minutes}m`
}

// The runner's parsers compare with .NET's culture-aware IndexOf and StartsWith, which on
// ICU skip characters that weigh nothing: `#\u200B#[` is found as `##[`. These are all of
// them (checked against ICU's root collation, every code point), and then some: controls,
// format characters, marks, default-ignorables and five more that ICU passes over.
const WEIGHTLESS =
  '\\p{Cc}\\p{Cf}\\p{M}\\p{Default_Ignorable_Code_Point}\\u0640\\u07fa\\u180a\\u1cd3\\ufe73'
// The `##` of a legacy command, its `[` next (lookahead, so that `##[##[` is two matches).
const legacyPrefix = lazyRegExp(() => new RegExp(`#[${WEIGHTLESS}]*#[${WEIGHTLESS}]*(?=\\[)`, 'gu'))
// A first `:` that another follows, at the start once whitespace (as .NET's TrimStart
// removes it) and weightless characters are passed.
const commandStart = lazyRegExp(
  () => new RegExp(`^[\\s\\p{Z}${WEIGHTLESS}]*:(?=[${WEIGHTLESS}]*:)`, 'u'),
)
// A line whose first character after spaces and tabs is printable ASCII other than `:`
// cannot start a command: none of those is whitespace or weightless.
const PLAIN_START = /^[ \t]*[!-9;-~]/
// Where the runner splits what a step prints into lines; kept by split() as a capture.
const LINE_BREAK = /(\r\n|\r|\n)/

/**
 * Text that cannot act as a legacy workflow command (`##[name]data`), which the runner
 * finds anywhere in a line: a space goes between `##` and `[`. A space, not a zero-width
 * character: the runner's search skips those, but not a space. Other text is unchanged.
 */
export function neutralizeLegacyCommands(text: string): string {
  return text.includes('#') ? text.replace(legacyPrefix(), '$& ') : text
}

/**
 * Log text that the runner cannot read as a workflow command in either syntax: no `##[`
 * anywhere (see neutralizeLegacyCommands), and no line that starts with `::`, where a
 * space goes between the two colons. Ordinary text (`C#`, `a::b`, `[x]`) is unchanged.
 */
export function neutralizeCommands(text: string): string {
  return neutralizeLegacyCommands(text)
    .split(LINE_BREAK)
    .map((line) => (PLAIN_START.test(line) ? line : line.replace(commandStart(), '$& ')))
    .join('')
}

/**
 * A regular expression built on first use. Those with Unicode property classes take about
 * a millisecond each to build, and most runs print nothing that needs them: a step that
 * only creates a token should not pay for them at every start.
 */
export function lazyRegExp(build: () => RegExp): () => RegExp {
  let built: RegExp | undefined
  return () => (built ??= build())
}

export type Logger = Record<'debug' | 'info' | 'notice' | 'warning', (message: string) => void>
