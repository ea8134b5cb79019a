// Parsers of single input values, each returning the typed value or refusing it, naming the input.
import { InputError } from '../shared/errors.js'
import { isUuid, type RevokeOnExit } from '../shared/records.js'
import { CONTROL_CHARACTER, isLoopback, quote } from '../shared/text.js'

/**
 * Reads one raw value (the input's default when it was left empty) as `input`, or throws an
 * InputError naming it. Parsers made for one input (readEnvName...) name that input themselves.
 */
export type Parser<T> = (raw: string, input: string) => T

const BOOLEANS = ['true', 'True', 'TRUE', 'false', 'False', 'FALSE']
const DURATION = /^(\d+)([mhdw])$/
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/
const LATER = 'in later steps'
// Names that belong to the runner, or change how later steps, the shell, a language or the
// dynamic linker behave, with why ('' for the names every step depends on). Compared in
// upper case: Windows runners ignore case. The group is the family's prefix, for the message.
const REFUSED_ENV_NAMES: [RegExp, string][] = [
  [/^(GITHUB_|RUNNER_|ACTIONS_|INPUT_|STATE_)/, 'belong to the runner'],
  [/^(?:PATH|BASH_ENV|ENV|SHELLOPTS|PS4|PROMPT_COMMAND|HOME|SHELL|IFS|CDPATH|GCONV_PATH)$/, ''],
  [/^(LD_)/, `change how the dynamic linker loads every program ${LATER}`],
  [/^(DYLD_)/, `change how the macOS dynamic linker loads every program ${LATER}`],
  [/^(GIT_)/, `change how git runs ${LATER}`],
  [/^(NODE_)/, `change how Node.js runs ${LATER}`],
  [/^(PYTHON)/, `change how Python runs ${LATER}`],
  [/^(PERL)/, `change how Perl runs ${LATER}`],
  [/^(RUBY)/, `change how Ruby runs ${LATER}`],
  [/^(_?JAVA_)/, `change how Java runs ${LATER}`],
  [/^(DOTNET_)/, `change how .NET runs ${LATER}`],
  [/^(SSL_)/, 'change which certificates later steps trust'],
  [/_PROXY$/, 'change where later steps send their network traffic'],
]

/** One of `choices`, exactly as written. */
export function oneOf<const T extends string>(choices: readonly T[]): Parser<T> {
  return (raw, input) => {
    const choice = choices.find((c) => c === raw)
    if (choice !== undefined) return choice
    throw new InputError(input, `must be one of ${choices.join(', ')}; got ${quote(raw)}.`)
  }
}

/** YAML 1.2 core-schema booleans, as `core.getBooleanInput` accepts them. */
export function readBoolean(raw: string, input: string): boolean {
  if (!BOOLEANS.includes(raw))
    throw new InputError(input, `must be true or false; got ${quote(raw)}.`)
  return BOOLEANS.indexOf(raw) < 3
}

/** revokeOnExit: a boolean as readBoolean reads one, or `failure`. */
export function readRevokeOnExit(raw: string): RevokeOnExit {
  if (raw === 'failure') return 'failure'
  if (BOOLEANS.includes(raw)) return readBoolean(raw, 'revokeOnExit') ? 'always' : 'never'
  throw new InputError(
    'revokeOnExit',
    `must be true, false or failure (revoke only when the job does not succeed); got ${quote(raw)}.`,
  )
}

/** A whole number from `min` to `max`; `what` says what it counts, for the message. */
export function wholeNumber(min: number, max: number, what = 'a whole number'): Parser<number> {
  return (raw, input) => {
    const number = /^\d+$/.test(raw) ? Number(raw) : NaN
    if (number >= min && number <= max) return number
    throw new InputError(input, `must be ${what} from ${min} to ${max}; got ${quote(raw)}.`)
  }
}

/** `30d`, `12h`, `90m`, `2w`: a whole number, at least 1, and a unit; undefined when empty. */
export function readDuration(raw: string): Duration | undefined {
  if (!raw) return undefined
  const [, count, unit] = DURATION.exec(raw) ?? []
  if (unit === undefined || !(Number(count) >= 1))
    throw new InputError(
      'olderThan',
      `must be a whole number and a unit, m, h, d or w (90m, 12h, 30d, 2w); got ${quote(raw)}.`,
    )
  return { text: raw, ms: Number(count) * UNIT_MS[unit as keyof typeof UNIT_MS] }
}
export type Duration = { text: string; ms: number }

/** audit's olderThan: the age past which an active token is a finding, required. */
export function readAuditAge(raw: string): Duration {
  const age = readDuration(raw)
  if (age !== undefined) return age
  throw new InputError(
    'olderThan',
    'is required for operation audit: the age past which an active token is a finding (90d, 12h, 2w).',
  )
}

/**
 * list's, cleanup's and audit's name: one filter per line, each exact or a `*` pattern, blank
 * lines and the spaces around a line dropped; undefined (every name) when there is none.
 */
export function readNameFilters(raw: string): string[] | undefined {
  const lines = raw.split('\n').flatMap((line) => line.trim() || [])
  for (const line of lines)
    if (CONTROL_CHARACTER.test(line))
      throw new InputError(
        'name',
        `must not hold control characters (tabs, carriage returns) within a line; got ${quote(line)}.`,
      )
  return lines.length > 0 ? lines : undefined
}

/** create's name: the new token's, required, one line. */
export function readRequiredName(raw: string): string {
  const [name] = readNameFilters(raw) ?? []
  if (name === undefined)
    throw new InputError('name', "is required for this operation: the new token's name.")
  // Several lines are several filters; a line break the filters' reading dropped (blank
  // lines) still makes a name of two lines.
  if (raw.includes('\n'))
    throw new InputError(
      'name',
      `must be one line for operation create: a token has one name (several lines are filters, for list, cleanup and audit); got ${quote(raw)}.`,
    )
  return name
}

export function readTokenId(raw: string): string {
  if (isUuid(raw)) return raw
  throw new InputError(
    'tokenId',
    raw
      ? `must be a UUID like 123e4567-e89b-42d3-a456-426614174000; got ${quote(raw)}.`
      : 'is required for operation revoke: the id (a UUID) of the token.',
  )
}

/**
 * cleanup's keepIds: the ids (UUIDs) of tokens it never revokes, one per line, blank lines
 * and the spaces around a line dropped. Each is checked before any request: an id mistyped
 * would keep nothing, and the token it meant (one a mediator runs on) would be revoked.
 */
export function readKeepIds(raw: string): string[] {
  const ids = raw.split('\n').flatMap((line) => line.trim() || [])
  const other = ids.find((id) => !isUuid(id))
  if (other === undefined) return ids
  throw new InputError(
    'keepIds',
    `must hold token ids (UUIDs), one per line, like 123e4567-e89b-42d3-a456-426614174000; got ${quote(other)}.`,
  )
}

/** expectedProjectId: empty, or a UUID. */
export function readProjectId(raw: string): string | undefined {
  if (!raw || isUuid(raw)) return raw || undefined
  throw new InputError(
    'expectedProjectId',
    `must be a project id (a UUID) like 6f1c2a8e-3b4d-4e5f-9a0b-1c2d3e4f5a6b; got ${quote(raw)}.`,
  )
}

/** envName, or another input that names a variable (the command line's --env); undefined when empty. */
export function readEnvName(raw: string, input = 'envName'): string | undefined {
  if (!raw) return undefined
  if (!ENV_NAME.test(raw))
    throw new InputError(
      input,
      `must be an environment variable name (letters, digits and _, not starting with a digit); got ${quote(raw)}.`,
    )
  const upper = raw.toUpperCase()
  const [pattern, why] = REFUSED_ENV_NAMES.find(([family]) => family.test(upper)) ?? []
  if (pattern === undefined) return raw
  const prefix = pattern.exec(upper)?.[1]
  const reason = why
    ? `names ${prefix === undefined ? 'ending in _PROXY' : `starting with ${prefix}`} ${why}`
    : 'it would change how every later step runs'
  throw new InputError(
    input,
    `must not be ${raw}: ${reason}. Choose a name of your own, like YOURSERVICE_GATEWAY_TOKEN.`,
  )
}

/**
 * An absolute https URL (http for loopback only), without credentials, query or fragment,
 * returned as its origin and path without a trailing `/`. `what` says what it is, for the
 * message when it is missing.
 */
export function readUrl(raw: string, input: string, what: string): string {
  const refuse = (problem: string) => new InputError(input, problem)
  if (!raw) throw refuse(`is required: ${what}, like https://api.example.com.`)
  if (!URL.canParse(raw))
    throw refuse(`must be an absolute URL like https://api.example.com; got ${quote(raw)}.`)
  const url = new URL(raw)
  // Credentials in a URL would be printed with every request line and error message.
  if (url.username || url.password)
    throw refuse(
      'must not contain a user name or password: the action authenticates with clientId and clientSecret.',
    )
  // Not quoted whole: a query may carry a key, and the message goes to the log.
  if (url.search || url.hash)
    throw refuse(
      `must not have a query string or fragment (not shown here); got one after ${quote(url.origin + url.pathname)}.`,
    )
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url)))
    throw refuse(
      `must use https (http only for localhost, 127.0.0.0/8 and [::1]); got ${quote(raw)}.`,
    )
  return url.origin + url.pathname.replace(/\/+$/, '')
}
