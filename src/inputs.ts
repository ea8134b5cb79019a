import { FORK_HINT, InputError } from './errors.js'
import type { SecretMasker } from './secrets.js'
import { truncate } from './text.js'

/** Reads one raw input by name (`core.getInput`: trimmed, `''` when unset). */
export type InputSource = (name: string) => string

/**
 * The defaults of action.yml. The runner fills them in before the action starts;
 * they are repeated here for runs that do not (local runs, tests). A test keeps
 * the two in step.
 */
export const INPUT_DEFAULTS = {
  name: '',
  tokenId: '',
  envName: '',
  ifExists: 'create',
  revokeOnExit: 'false',
  state: 'all',
  olderThan: '',
  keep: '0',
  dryRun: 'false',
  concurrency: '4',
  timeout: '30',
  retries: '3',
  summary: 'true',
} as const satisfies Record<string, string>

export const OPERATIONS = ['create', 'list', 'revoke', 'cleanup'] as const
export type Operation = (typeof OPERATIONS)[number]

export const STATE_FILTERS = ['active', 'revoked', 'all'] as const
export type StateFilter = (typeof STATE_FILTERS)[number]

export const IF_EXISTS = ['create', 'reuse', 'fail'] as const
export type IfExists = (typeof IF_EXISTS)[number]

export const AUTH_PATH = '/idp/identity/resources/auth/v2/api-token'

/** Where and how to reach the platform. */
export interface Connection {
  clientId: string
  clientSecret: string
  /** REST API base, without a trailing `/`. */
  baseUrl: string
  /** The full URL of the token endpoint. */
  authEndpoint: string
  timeoutMs: number
  /** Retries of a transient failure, on top of the first attempt. */
  retries: number
}

export interface CreateTask {
  operation: 'create'
  name: string
  /** Also export the value into this environment variable. */
  envName: string | undefined
  /** What to do when an active token with this exact name exists. */
  ifExists: IfExists
  /** Revoke the created token in the post step, at the end of the job. */
  revokeOnExit: boolean
}

export interface ListTask {
  operation: 'list'
  /** Exact name or a `*` pattern; undefined lists every name. */
  name: string | undefined
  state: StateFilter
}

export interface RevokeTask {
  operation: 'revoke'
  tokenId: string
}

export interface CleanupTask {
  operation: 'cleanup'
  /** Exact name or a `*` pattern; undefined selects every name. */
  name: string | undefined
  /** Revoke only tokens older than this; undefined selects any age. */
  olderThan: { text: string; ms: number } | undefined
  /** Keep this many of the newest active tokens of each name, whatever their age. */
  keep: number
  dryRun: boolean
  /** Revokes in flight at once. */
  concurrency: number
}

export type Task = CreateTask | ListTask | RevokeTask | CleanupTask

export interface Inputs {
  connection: Connection
  task: Task
  summary: boolean
  /** Inputs that were set but that this operation does not use. */
  warnings: string[]
}

/** The operation-specific inputs each operation reads; any other one set is reported as ignored. */
const USED_BY: Record<Operation, readonly (keyof typeof INPUT_DEFAULTS)[]> = {
  create: ['name', 'envName', 'ifExists', 'revokeOnExit'],
  list: ['name', 'state'],
  revoke: ['tokenId'],
  cleanup: ['name', 'olderThan', 'keep', 'dryRun', 'concurrency'],
}
const OPERATION_SPECIFIC = [...new Set(Object.values(USED_BY).flat())]

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/
// Variables that change how later steps, the shell, Node or the dynamic linker behave.
const HIJACKING_ENV_NAMES = new Set([
  'PATH',
  'NODE_OPTIONS',
  'NODE_PATH',
  'LD_PRELOAD',
  'LD_LIBRARY_PATH',
  'LD_AUDIT',
  'DYLD_INSERT_LIBRARIES',
  'DYLD_LIBRARY_PATH',
  'BASH_ENV',
  'ENV',
  'SHELLOPTS',
  'PS4',
  'PROMPT_COMMAND',
  'HOME',
])
const RESERVED_ENV_PREFIXES = ['GITHUB_', 'RUNNER_', 'ACTIONS_', 'INPUT_', 'STATE_']
// C0 and C1 control characters, DEL included.
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/
const DURATION = /^(\d+)([mhdw])$/
const UNIT_MS = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 } as const

/**
 * Reads and checks every input, or throws an InputError naming the first bad one.
 * Nothing is sent before this returns, so a bad input costs no request.
 */
export function readInputs(read: InputSource, secrets: SecretMasker): Inputs {
  maskClientSecret(read, secrets)
  const operation = readOperation(read('operation'))
  const connection = readConnection(read, secrets)
  const value = (input: keyof typeof INPUT_DEFAULTS): string => read(input) || INPUT_DEFAULTS[input]
  const summary = readBoolean('summary', value('summary'))

  let task: Task
  switch (operation) {
    case 'create':
      task = {
        operation,
        name: readRequiredName(value('name'), "the new token's name"),
        envName: readEnvName(value('envName')),
        ifExists: readChoice('ifExists', value('ifExists'), IF_EXISTS),
        revokeOnExit: readBoolean('revokeOnExit', value('revokeOnExit')),
      }
      break
    case 'list':
      task = {
        operation,
        name: readNameFilter(value('name')),
        state: readChoice('state', value('state'), STATE_FILTERS),
      }
      break
    case 'revoke':
      task = { operation, tokenId: readTokenId(value('tokenId')) }
      break
    case 'cleanup':
      task = readCleanup(value)
      break
  }

  const warnings = OPERATION_SPECIFIC.filter(
    (input) => !USED_BY[operation].includes(input) && value(input) !== INPUT_DEFAULTS[input],
  ).map((input) => `Input '${input}' is not used by operation ${operation}; it is ignored.`)

  return { connection, task, summary, warnings }
}

/**
 * The inputs that reach the platform: credentials, URLs, timeout and retries. The
 * post step reads them on their own.
 */
export function readConnection(read: InputSource, secrets: SecretMasker): Connection {
  const clientSecret = maskClientSecret(read, secrets)
  const clientId = read('clientId')
  if (!clientId)
    throw new InputError('clientId', `is required: the API client id, from a secret. ${FORK_HINT}`)
  if (!clientSecret) {
    throw new InputError(
      'clientSecret',
      `is required: the API client secret, from a secret. ${FORK_HINT}`,
    )
  }
  const value = (input: 'timeout' | 'retries'): string => read(input) || INPUT_DEFAULTS[input]
  return {
    clientId,
    clientSecret,
    baseUrl: withoutTrailingSlash(readUrl('baseUrl', read('baseUrl'), 'the REST API base URL')),
    authEndpoint: authEndpoint(readUrl('authUrl', read('authUrl'), 'the auth service base URL')),
    timeoutMs: readInteger('timeout', value('timeout'), 1, 600, 'a whole number of seconds') * 1000,
    retries: readInteger('retries', value('retries'), 0, 10, 'a whole number'),
  }
}

/**
 * Every step calls this first: the runner hides a value only from the moment it is
 * registered, so the secret is masked before any other input is read or checked.
 * Registering it twice is harmless.
 */
function maskClientSecret(read: InputSource, secrets: SecretMasker): string {
  const clientSecret = read('clientSecret')
  secrets.add(clientSecret)
  return clientSecret
}

function readCleanup(value: (input: keyof typeof INPUT_DEFAULTS) => string): CleanupTask {
  const name = readNameFilter(value('name'))
  const olderThan = readDuration(value('olderThan'))
  if (name === undefined && olderThan === undefined) {
    // Without a selector, a cleanup would revoke every token of the project.
    throw new InputError(
      'name',
      "or 'olderThan' is required for operation cleanup: say which tokens to revoke (name: ci-*, olderThan: 30d). Nothing was revoked.",
    )
  }
  return {
    operation: 'cleanup',
    name,
    olderThan,
    keep: readInteger('keep', value('keep'), 0, 1000, 'a whole number'),
    dryRun: readBoolean('dryRun', value('dryRun')),
    concurrency: readInteger('concurrency', value('concurrency'), 1, 32, 'a whole number'),
  }
}

/** `30d`, `12h`, `90m`, `2w`: a whole number, at least 1, and a unit. */
function readDuration(raw: string): CleanupTask['olderThan'] {
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

function readOperation(raw: string): Operation {
  if (!raw) throw new InputError('operation', `is required: one of ${OPERATIONS.join(', ')}.`)
  return readChoice('operation', raw, OPERATIONS)
}

function readChoice<T extends string>(input: string, raw: string, choices: readonly T[]): T {
  const choice = choices.find((c) => c === raw)
  if (choice === undefined) {
    throw new InputError(input, `must be one of ${choices.join(', ')}; got ${quote(raw)}.`)
  }
  return choice
}

/** YAML 1.2 core-schema booleans, as `core.getBooleanInput` accepts them. */
function readBoolean(input: string, raw: string): boolean {
  if (['true', 'True', 'TRUE'].includes(raw)) return true
  if (['false', 'False', 'FALSE'].includes(raw)) return false
  throw new InputError(input, `must be true or false; got ${quote(raw)}.`)
}

function readInteger(input: string, raw: string, min: number, max: number, what: string): number {
  const number = /^\d+$/.test(raw) ? Number(raw) : NaN
  if (!(number >= min && number <= max)) {
    throw new InputError(input, `must be ${what} from ${min} to ${max}; got ${quote(raw)}.`)
  }
  return number
}

function readRequiredName(raw: string, what: string): string {
  if (!raw) throw new InputError('name', `is required for this operation: ${what}.`)
  return checkName(raw)
}

function readNameFilter(raw: string): string | undefined {
  return raw ? checkName(raw) : undefined
}

function checkName(raw: string): string {
  if (CONTROL_CHARACTERS.test(raw)) {
    throw new InputError(
      'name',
      `must not hold control characters (line breaks, tabs); got ${quote(raw)}.`,
    )
  }
  return raw
}

function readTokenId(raw: string): string {
  if (!raw) {
    throw new InputError(
      'tokenId',
      'is required for operation revoke: the id (a UUID) of the token.',
    )
  }
  if (!UUID.test(raw)) {
    throw new InputError(
      'tokenId',
      `must be a UUID like 123e4567-e89b-42d3-a456-426614174000; got ${quote(raw)}.`,
    )
  }
  return raw
}

function readEnvName(raw: string): string | undefined {
  if (!raw) return undefined
  if (!ENV_NAME.test(raw)) {
    throw new InputError(
      'envName',
      `must be an environment variable name (letters, digits and _, not starting with a digit); got ${quote(raw)}.`,
    )
  }
  // Compared case-insensitively: environment names are case-insensitive on Windows runners.
  const upper = raw.toUpperCase()
  const reserved = RESERVED_ENV_PREFIXES.find((prefix) => upper.startsWith(prefix))
  if (HIJACKING_ENV_NAMES.has(upper) || reserved !== undefined) {
    const why = reserved
      ? `names starting with ${reserved} belong to the runner`
      : 'it would change how every later step runs'
    throw new InputError(
      'envName',
      `must not be ${raw}: ${why}. Choose a name of your own, like MEDIATOR_GATEWAY_TOKEN.`,
    )
  }
  return raw
}

function readUrl(input: string, raw: string, what: string): URL {
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
    throw new InputError(input, `must not have a query string or fragment; got ${quote(raw)}.`)
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

function withoutTrailingSlash(url: URL): string {
  return url.origin + url.pathname.replace(/\/+$/, '')
}

/** Deployments differ in the path prefix, so a URL that already names the endpoint is used as is. */
function authEndpoint(url: URL): string {
  const base = withoutTrailingSlash(url)
  return base.endsWith('/api-token') ? base : base + AUTH_PATH
}

/** Quotes a value for a message: escapes control characters, cuts long values. */
function quote(raw: string): string {
  return JSON.stringify(truncate(raw, 80))
}
