// Parsers of single input values: each returns the typed value or throws an InputError naming the input.
import { InputError } from '../shared/errors.js'
import { isUuid } from '../shared/records.js'
import type { RevokeOnExit } from './task.js'
import { CONTROL_CHARACTER, truncate } from '../shared/text.js'

const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/
// Names that change how later steps, the shell, Node or the dynamic linker behave, or that
// belong to the runner. Compared in upper case: names are case-insensitive on Windows runners.
interface EnvNameRule {
  refuses: (upper: string) => boolean
  why: string
}
const startingWith = (prefix: string, why: string): EnvNameRule => ({
  refuses: (upper) => upper.startsWith(prefix),
  why: `names starting with ${prefix} ${why}`,
})
const SHELL_AND_SYSTEM_NAMES = new Set([
  'PATH',
  'BASH_ENV',
  'ENV',
  'SHELLOPTS',
  'PS4',
  'PROMPT_COMMAND',
  'HOME',
  'SHELL',
  'IFS',
  'CDPATH',
  'GCONV_PATH',
])
const ENV_NAME_RULES: readonly EnvNameRule[] = [
  ...['GITHUB_', 'RUNNER_', 'ACTIONS_', 'INPUT_', 'STATE_'].map((prefix) =>
    startingWith(prefix, 'belong to the runner'),
  ),
  {
    refuses: (upper) => SHELL_AND_SYSTEM_NAMES.has(upper),
    why: 'it would change how every later step runs',
  },
  startingWith('LD_', 'change how the dynamic linker loads every program in later steps'),
  startingWith('DYLD_', 'change how the macOS dynamic linker loads every program in later steps'),
  startingWith('GIT_', 'change how git runs in later steps'),
  startingWith('NODE_', 'change how Node.js runs in later steps'),
  startingWith('PYTHON', 'change how Python runs in later steps'),
  startingWith('PERL', 'change how Perl runs in later steps'),
  startingWith('RUBY', 'change how Ruby runs in later steps'),
  startingWith('JAVA_', 'change how Java runs in later steps'),
  startingWith('_JAVA_', 'change how Java runs in later steps'),
  startingWith('DOTNET_', 'change how .NET runs in later steps'),
  startingWith('SSL_', 'change which certificates later steps trust'),
  {
    refuses: (upper) => upper.endsWith('_PROXY'),
    why: 'names ending in _PROXY change where later steps send their network traffic',
  },
]
const DURATION = /^(\d+)([mhdw])$/
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const

export function readChoice<T extends string>(input: string, raw: string, choices: readonly T[]): T {
  const choice = choices.find((c) => c === raw)
  if (choice === undefined) {
    throw new InputError(input, `must be one of ${choices.join(', ')}; got ${quote(raw)}.`)
  }
  return choice
}

/** YAML 1.2 core-schema booleans, as `core.getBooleanInput` accepts them. */
export function readBoolean(input: string, raw: string): boolean {
  if (['true', 'True', 'TRUE'].includes(raw)) return true
  if (['false', 'False', 'FALSE'].includes(raw)) return false
  throw new InputError(input, `must be true or false; got ${quote(raw)}.`)
}

/** revokeOnExit: a boolean as readBoolean reads one, or `failure`. */
export function readRevokeOnExit(raw: string): RevokeOnExit {
  if (raw === 'failure') return 'failure'
  if (!['true', 'True', 'TRUE', 'false', 'False', 'FALSE'].includes(raw)) {
    throw new InputError(
      'revokeOnExit',
      `must be true, false or failure (revoke only when the job does not succeed); got ${quote(raw)}.`,
    )
  }
  return readBoolean('revokeOnExit', raw) ? 'always' : 'never'
}

export function readInteger(
  input: string,
  raw: string,
  min: number,
  max: number,
  what: string,
): number {
  const number = /^\d+$/.test(raw) ? Number(raw) : NaN
  if (!(number >= min && number <= max)) {
    throw new InputError(input, `must be ${what} from ${min} to ${max}; got ${quote(raw)}.`)
  }
  return number
}

/** `30d`, `12h`, `90m`, `2w`: a whole number, at least 1, and a unit. */
export function readDuration(raw: string): { text: string; ms: number } | undefined {
  if (!raw) return undefined
  const match = DURATION.exec(raw)
  const count = Number(match?.[1])
  const unit = match?.[2] as keyof typeof UNIT_MS | undefined
  if (unit === undefined || !(count >= 1)) {
    throw new InputError(
      'olderThan',
      `must be a whole number and a unit, m, h, d or w (90m, 12h, 30d, 2w); got ${quote(raw)}.`,
    )
  }
  return { text: raw, ms: count * UNIT_MS[unit] }
}

export function readRequiredName(raw: string, what: string): string {
  if (!raw) throw new InputError('name', `is required for this operation: ${what}.`)
  return checkName(raw)
}

export function readNameFilter(raw: string): string | undefined {
  return raw ? checkName(raw) : undefined
}

function checkName(raw: string): string {
  if (CONTROL_CHARACTER.test(raw)) {
    throw new InputError(
      'name',
      `must not hold control characters (line breaks, tabs); got ${quote(raw)}.`,
    )
  }
  return raw
}

export function readTokenId(raw: string): string {
  if (!raw) {
    throw new InputError(
      'tokenId',
      'is required for operation revoke: the id (a UUID) of the token.',
    )
  }
  if (!isUuid(raw)) {
    throw new InputError(
      'tokenId',
      `must be a UUID like 123e4567-e89b-42d3-a456-426614174000; got ${quote(raw)}.`,
    )
  }
  return raw
}

/** expectedProjectId: empty, or a UUID. */
export function readProjectId(raw: string): string | undefined {
  if (!raw) return undefined
  if (!isUuid(raw)) {
    throw new InputError(
      'expectedProjectId',
      `must be a project id (a UUID) like 6f1c2a8e-3b4d-4e5f-9a0b-1c2d3e4f5a6b; got ${quote(raw)}.`,
    )
  }
  return raw
}

export function readEnvName(raw: string): string | undefined {
  if (!raw) return undefined
  if (!ENV_NAME.test(raw)) {
    throw new InputError(
      'envName',
      `must be an environment variable name (letters, digits and _, not starting with a digit); got ${quote(raw)}.`,
    )
  }
  const upper = raw.toUpperCase()
  const rule = ENV_NAME_RULES.find((r) => r.refuses(upper))
  if (rule !== undefined) {
    throw new InputError(
      'envName',
      `must not be ${raw}: ${rule.why}. Choose a name of your own, like YOURSERVICE_GATEWAY_TOKEN.`,
    )
  }
  return raw
}

/** An absolute https URL (http for loopback only), without credentials, query or fragment. */
export function readUrl(input: string, raw: string, what: string): URL {
  if (!raw) throw new InputError(input, `is required: ${what}, like https://api.example.com.`)
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new InputError(
      input,
      `must be an absolute URL like https://api.example.com; got ${quote(raw)}.`,
    )
  }
  // Credentials in a URL would be printed with every request line and error message.
  if (url.username || url.password) {
    throw new InputError(
      input,
      'must not contain a user name or password: the action authenticates with clientId and clientSecret.',
    )
  }
  if (url.search || url.hash) {
    // Not quoted whole: a query may carry a key, and the message goes to the log.
    throw new InputError(
      input,
      `must not have a query string or fragment (not shown here); got one after ${quote(url.origin + url.pathname)}.`,
    )
  }
  const loopback = isLoopback(url.hostname)
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) {
    throw new InputError(
      input,
      `must use https (http only for localhost, 127.0.0.0/8 and [::1]); got ${quote(raw)}.`,
    )
  }
  return url
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(hostname)
}

/** The URL's origin and path, without a trailing `/`. */
export function withoutTrailingSlash(url: URL): string {
  return url.origin + url.pathname.replace(/\/+$/, '')
}

/** Quotes a value for a message: escapes control characters, cuts long values. */
function quote(raw: string): string {
  // JSON escapes only C0 controls; DEL and the C1 ones (U+0085 is a line break to some readers) too.
  return JSON.stringify(truncate(raw, 80)).replace(
    /[\u007f-\u009f]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  )
}
