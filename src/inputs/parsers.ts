// Parsers of single input values, each returning the typed value or refusing it, naming the input; and inputs the action does not declare, refused.
import { InputError } from '../shared/errors.js'
import { isUuid } from '../shared/records.js'
import { CONTROL_CHARACTER, truncate } from '../shared/text.js'

/** What refuses a value of `input`: `throw refuse('is ...')`. */
const refuser = (input: string) => (problem: string) => new InputError(input, problem)

const BOOLEANS = ['true', 'True', 'TRUE', 'false', 'False', 'FALSE']
const DURATION = /^(\d+)([mhdw])$/
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/
const LATER = 'in later steps'
// Names that belong to the runner, or change how later steps, the shell, a language or the
// dynamic linker behave, with why. Compared in upper case: Windows runners ignore case.
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

export function readChoice<T extends string>(input: string, raw: string, choices: readonly T[]): T {
  const choice = choices.find((c) => c === raw)
  if (choice === undefined)
    throw refuser(input)(`must be one of ${choices.join(', ')}; got ${quote(raw)}.`)
  return choice
}

/** YAML 1.2 core-schema booleans, as `core.getBooleanInput` accepts them. */
export function readBoolean(input: string, raw: string): boolean {
  if (!BOOLEANS.includes(raw)) throw refuser(input)(`must be true or false; got ${quote(raw)}.`)
  return BOOLEANS.indexOf(raw) < 3
}

/**
 * When the post step revokes the token a create made: `always` (revokeOnExit: true),
 * `failure` (only when the job did not succeed), or `never` (false).
 */
export type RevokeOnExit = 'always' | 'failure' | 'never'

/** revokeOnExit: a boolean as readBoolean reads one, or `failure`. */
export function readRevokeOnExit(raw: string): RevokeOnExit {
  if (raw === 'failure') return 'failure'
  if (!BOOLEANS.includes(raw)) {
    throw refuser('revokeOnExit')(
      `must be true, false or failure (revoke only when the job does not succeed); got ${quote(raw)}.`,
    )
  }
  return readBoolean('revokeOnExit', raw) ? 'always' : 'never'
}

/** A whole number from `min` to `max`; `what` says what it counts, for the message. */
export function readInteger(input: string, raw: string, min: number, max: number, what: string) {
  const number = /^\d+$/.test(raw) ? Number(raw) : NaN
  if (!(number >= min && number <= max))
    throw refuser(input)(`must be ${what} from ${min} to ${max}; got ${quote(raw)}.`)
  return number
}

/** `30d`, `12h`, `90m`, `2w`: a whole number, at least 1, and a unit. */
export function readDuration(raw: string): { text: string; ms: number } | undefined {
  if (!raw) return undefined
  const match = DURATION.exec(raw)
  const count = Number(match?.[1])
  const unit = match?.[2] as keyof typeof UNIT_MS | undefined
  if (unit === undefined || !(count >= 1)) {
    throw refuser('olderThan')(
      `must be a whole number and a unit, m, h, d or w (90m, 12h, 30d, 2w); got ${quote(raw)}.`,
    )
  }
  return { text: raw, ms: count * UNIT_MS[unit] }
}

export function readRequiredName(raw: string, what: string): string {
  if (!raw) throw refuser('name')(`is required for this operation: ${what}.`)
  return checkName(raw)
}

export function readNameFilter(raw: string): string | undefined {
  return raw ? checkName(raw) : undefined
}

function checkName(raw: string): string {
  if (CONTROL_CHARACTER.test(raw))
    throw refuser('name')(
      `must not hold control characters (line breaks, tabs); got ${quote(raw)}.`,
    )
  return raw
}

export function readTokenId(raw: string): string {
  const refuse = refuser('tokenId')
  if (!raw) throw refuse('is required for operation revoke: the id (a UUID) of the token.')
  if (!isUuid(raw))
    throw refuse(`must be a UUID like 123e4567-e89b-42d3-a456-426614174000; got ${quote(raw)}.`)
  return raw
}

/** expectedProjectId: empty, or a UUID. */
export function readProjectId(raw: string): string | undefined {
  if (!raw || isUuid(raw)) return raw || undefined
  throw refuser('expectedProjectId')(
    `must be a project id (a UUID) like 6f1c2a8e-3b4d-4e5f-9a0b-1c2d3e4f5a6b; got ${quote(raw)}.`,
  )
}

export function readEnvName(raw: string): string | undefined {
  const refuse = refuser('envName')
  if (!raw) return undefined
  if (!ENV_NAME.test(raw)) {
    throw refuse(
      `must be an environment variable name (letters, digits and _, not starting with a digit); got ${quote(raw)}.`,
    )
  }
  const upper = raw.toUpperCase()
  for (const [pattern, why] of REFUSED_ENV_NAMES) {
    const prefix = pattern.exec(upper)?.[1]
    if (!pattern.test(upper)) continue
    const reason =
      why === ''
        ? 'it would change how every later step runs'
        : `names ${prefix === undefined ? 'ending in _PROXY' : `starting with ${prefix}`} ${why}`
    throw refuse(
      `must not be ${raw}: ${reason}. Choose a name of your own, like YOURSERVICE_GATEWAY_TOKEN.`,
    )
  }
  return raw
}

/** An absolute https URL (http for loopback only), without credentials, query or fragment. */
export function readUrl(input: string, raw: string, what: string): URL {
  const refuse = refuser(input)
  if (!raw) throw refuse(`is required: ${what}, like https://api.example.com.`)
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw refuse(`must be an absolute URL like https://api.example.com; got ${quote(raw)}.`)
  }
  // Credentials in a URL would be printed with every request line and error message.
  if (url.username || url.password) {
    throw refuse(
      'must not contain a user name or password: the action authenticates with clientId and clientSecret.',
    )
  }
  // Not quoted whole: a query may carry a key, and the message goes to the log.
  if (url.search || url.hash) {
    throw refuse(
      `must not have a query string or fragment (not shown here); got one after ${quote(url.origin + url.pathname)}.`,
    )
  }
  const loopback = /^(?:localhost|\[::1\]|127\.\d+\.\d+\.\d+)$/.test(url.hostname)
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback))
    throw refuse(
      `must use https (http only for localhost, 127.0.0.0/8 and [::1]); got ${quote(raw)}.`,
    )
  return url
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

/**
 * The variable the runner sets for an input: `INPUT_`, then the name in upper case with
 * spaces as `_` (actions/runner). Given here without the `INPUT_` prefix.
 */
export function inputVariable(name: string): string {
  return name.replace(/ /g, '_').toUpperCase()
}

/**
 * Fails when the step was given an input that is not declared. The runner only warns
 * about one, and passes it on: a misspelt `olderThan` would leave a cleanup without its
 * age filter, and it would revoke every token of the name. `given` holds the names of
 * the INPUT_* variables, without the prefix, as the runner spells them (upper case).
 */
export function refuseUnknownInputs(given: readonly string[], declared: readonly string[]): void {
  const known = new Set(declared.map(inputVariable))
  const unknown = given.filter((variable) => !known.has(variable.toUpperCase())).sort()
  const [first, ...others] = unknown
  if (first === undefined) return
  const meant = closest(first, declared)
  const guess =
    meant === undefined ? ` (the inputs are ${declared.join(', ')}).` : `: did you mean '${meant}'?`
  const also = others.map((variable) => {
    const other = closest(variable, declared)
    return `'${written(variable)}'${other === undefined ? '' : ` (did you mean '${other}'?)`}`
  })
  throw new InputError(
    written(first),
    `is not an input of this action${guess}${
      also.length > 0 ? ` Also unknown: ${also.join(', ')}.` : ''
    } Nothing was sent: the runner passes an unknown input on with only a warning, and a misspelt one could drop a filter and widen what the action revokes. If the step's with: does not set it, it may come from an env: block of the step, the job or the workflow: a variable named INPUT_${first.toUpperCase()} there reaches the action as an input; rename it.`,
  )
}

/** How the input was most likely written in `with:`: the runner gives it in upper case. */
function written(variable: string): string {
  return variable.toLowerCase()
}

/**
 * The declared input `variable` most resembles: the same letters and digits in any case
 * (`older_than`, `revoke-on-exit`), else the nearest by edit distance, if near enough
 * that a slip of the keyboard explains it.
 */
export function closest(variable: string, declared: readonly string[]): string | undefined {
  const wanted = squash(variable)
  if (wanted === '') return undefined
  let best: { name: string; distance: number } | undefined
  for (const name of declared) {
    const distance = editDistance(wanted, squash(name))
    if (best === undefined || distance < best.distance) best = { name, distance }
  }
  if (best === undefined) return undefined
  return best.distance <= Math.max(1, Math.floor(wanted.length / 4)) ? best.name : undefined
}

/** Letters and digits only, upper case: what is left when separators and case are ignored. */
function squash(name: string): string {
  return name.toUpperCase().replace(/[^A-Z0-9]/g, '')
}

/**
 * Edits (insert, delete, replace, swap two neighbours) from `a` to `b`: the restricted
 * Damerau-Levenshtein distance, so that `olderThna` is one edit from `olderThan`.
 */
export function editDistance(a: string, b: string): number {
  // rows[i][j]: the distance between the first i characters of a and the first j of b.
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  )
  const at = (i: number, j: number) => rows[i]?.[j] ?? Infinity
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i] ?? []
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let distance = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        distance = Math.min(distance, at(i - 2, j - 2) + 1)
      }
      row[j] = distance
    }
  }
  return at(a.length, b.length)
}
