// The one place that reads the step's inputs: every INPUT_* turned into one checked, typed task.
import { FORK_HINT, InputError } from '../shared/errors.js'
import {
  readBoolean,
  readChoice,
  readDuration,
  readEnvName,
  readInteger,
  readNameFilter,
  readProjectId,
  readRequiredName,
  readRevokeOnExit,
  readTokenId,
  readUrl,
  refuseUnknownInputs,
  type RevokeOnExit,
  withoutTrailingSlash,
} from './parsers.js'
import type { SecretMasker } from '../shared/secrets.js'

export const OPERATIONS = ['create', 'list', 'revoke', 'cleanup'] as const
export type Operation = (typeof OPERATIONS)[number]

export const STATE_FILTERS = ['active', 'revoked', 'all'] as const
type StateFilter = (typeof STATE_FILTERS)[number]

export const IF_EXISTS = ['create', 'reuse', 'fail'] as const
type IfExists = (typeof IF_EXISTS)[number]

/** Where and how to reach the platform. */
export interface Connection {
  clientId: string
  clientSecret: string
  /** REST API base, without a trailing `/`. */
  baseUrl: string
  /** The auth service's base URL, or its token endpoint, without a trailing `/`. */
  authUrl: string
  timeoutMs: number
  /** Retries of a transient failure, on top of the first attempt. */
  retries: number
  /** The whole step's time budget, retries and waits included; 0 for no limit. */
  totalTimeoutMs: number
}

export interface CreateTask {
  operation: 'create'
  name: string
  /** Also export the value into this environment variable. */
  envName: string | undefined
  /** What to do when an active token with this exact name exists. */
  ifExists: IfExists
  /** Whether the post step revokes the created token at the end of the job. */
  revokeOnExit: RevokeOnExit
  /** Also write the value to a new 0600 file under RUNNER_TEMP (output tokenFile). */
  writeTokenFile: boolean
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
  keep: '1',
  dryRun: 'false',
  concurrency: '4',
  timeout: '30',
  retries: '3',
  summary: 'true',
  writeTokenFile: 'false',
  expectedProjectId: '',
  totalTimeout: '900',
} as const satisfies Record<string, string>

/**
 * An input the workflow author never sets: its default in action.yml is
 * `${{ job.status }}`, which the runner evaluates again for the post step, so that it
 * learns whether the job succeeded (revokeOnExit: failure). Only the post step reads it.
 */
export const JOB_STATUS_INPUT = 'jobStatus'

/** The inputs action.yml requires (the runner does not enforce that: readInputs does). */
const REQUIRED_INPUTS = ['operation', 'clientId', 'clientSecret', 'baseUrl', 'authUrl']

/** Every input action.yml declares, in its order; a test keeps the two in step. */
export const DECLARED_INPUTS: readonly string[] = [
  ...REQUIRED_INPUTS,
  ...Object.keys(INPUT_DEFAULTS),
  JOB_STATUS_INPUT,
]

type Optional = keyof typeof INPUT_DEFAULTS
/** An optional input's value, its default when it was left empty. */
type ValueOf = (input: Optional) => string

export interface Inputs {
  connection: Connection
  task: Task
  summary: boolean
  /** Refuse to act on tokens of any other project (a UUID); undefined checks nothing. */
  expectedProjectId: string | undefined
  /** Inputs that were set but that this operation does not use. */
  warnings: string[]
}

/** The operation-specific inputs each operation reads; any other one set is reported as ignored. */
const USED_BY: Record<Operation, readonly Optional[]> = {
  create: ['name', 'envName', 'ifExists', 'revokeOnExit', 'writeTokenFile'],
  list: ['name', 'state'],
  revoke: ['tokenId'],
  cleanup: ['name', 'olderThan', 'keep', 'dryRun', 'concurrency'],
}
const OPERATION_SPECIFIC = [...new Set(Object.values(USED_BY).flat())]

/**
 * Reads and checks every input, or throws an InputError naming the first bad one.
 * Nothing is sent before this returns, so a bad input costs no request. `given` names
 * the inputs the step was given, as the runner spells their variables (refuseUnknownInputs).
 */
export function readInputs(
  read: InputSource,
  secrets: SecretMasker,
  given: readonly string[],
): Inputs {
  maskClientSecret(read, secrets)
  // Before any other check: a misspelt input explains the one found missing.
  refuseUnknownInputs(given, DECLARED_INPUTS)
  const operation = readOperation(read('operation'))
  const connection = readConnection(read, secrets)
  const orDefault = withDefaults(read)
  const summary = readBoolean('summary', orDefault('summary'))

  let task: Task
  switch (operation) {
    case 'create':
      task = {
        operation,
        name: readRequiredName(orDefault('name'), "the new token's name"),
        envName: readEnvName(orDefault('envName')),
        ifExists: readChoice('ifExists', orDefault('ifExists'), IF_EXISTS),
        revokeOnExit: readRevokeOnExit(orDefault('revokeOnExit')),
        writeTokenFile: readBoolean('writeTokenFile', orDefault('writeTokenFile')),
      }
      break
    case 'list':
      task = {
        operation,
        name: readNameFilter(orDefault('name')),
        state: readChoice('state', orDefault('state'), STATE_FILTERS),
      }
      break
    case 'revoke':
      task = { operation, tokenId: readTokenId(orDefault('tokenId')) }
      break
    case 'cleanup':
      task = readCleanup(orDefault)
      break
  }

  const warnings = OPERATION_SPECIFIC.filter(
    (input) => !USED_BY[operation].includes(input) && orDefault(input) !== INPUT_DEFAULTS[input],
  ).map((input) => `Input '${input}' is not used by operation ${operation}; it is ignored.`)

  return {
    connection,
    task,
    summary,
    expectedProjectId: readProjectId(orDefault('expectedProjectId')),
    warnings,
  }
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
  const orDefault = withDefaults(read)
  const authUrl = readUrl('authUrl', read('authUrl'), 'the auth service base URL')
  return {
    clientId,
    clientSecret,
    baseUrl: withoutTrailingSlash(readUrl('baseUrl', read('baseUrl'), 'the REST API base URL')),
    authUrl: withoutTrailingSlash(authUrl),
    timeoutMs:
      readInteger('timeout', orDefault('timeout'), 1, 600, 'a whole number of seconds') * 1000,
    retries: readInteger('retries', orDefault('retries'), 0, 10, 'a whole number'),
    totalTimeoutMs:
      readInteger(
        'totalTimeout',
        orDefault('totalTimeout'),
        0,
        21_600,
        'a whole number of seconds',
      ) * 1000,
  }
}

function withDefaults(read: InputSource): ValueOf {
  return (input) => read(input) || INPUT_DEFAULTS[input]
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

function readOperation(raw: string): Operation {
  if (!raw) throw new InputError('operation', `is required: one of ${OPERATIONS.join(', ')}.`)
  return readChoice('operation', raw, OPERATIONS)
}

function readCleanup(orDefault: ValueOf): CleanupTask {
  const name = readNameFilter(orDefault('name'))
  const olderThan = readDuration(orDefault('olderThan'))
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
    keep: readInteger('keep', orDefault('keep'), 0, 1000, 'a whole number'),
    dryRun: readBoolean('dryRun', orDefault('dryRun')),
    concurrency: readInteger('concurrency', orDefault('concurrency'), 1, 32, 'a whole number'),
  }
}
