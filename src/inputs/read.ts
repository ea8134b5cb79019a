// The one place that reads the step's inputs: every INPUT_* turned into one checked, typed task.
import { FORK_HINT, InputError } from '../shared/errors.js'
import * as parsers from './parsers.js'
import { refuseUnknownInputs } from './unknown-inputs.js'
import type { SecretMasker } from '../shared/secrets.js'

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
  keepIds: '',
  dryRun: 'false',
  concurrency: '4',
  timeout: '30',
  retries: '3',
  summary: 'true',
  writeTokenFile: 'false',
  expectedProjectId: '',
  totalTimeout: '900',
} as const satisfies Record<string, string>
type Optional = keyof typeof INPUT_DEFAULTS

/**
 * An input the workflow author never sets: its default in action.yml is
 * `${{ job.status }}`, which the runner evaluates again for the post step, so that it
 * learns whether the job succeeded (revokeOnExit: failure). Only the post step reads it.
 */
export const JOB_STATUS_INPUT = 'jobStatus'

/**
 * Every input action.yml declares, in its order, the first five required (the runner does
 * not enforce that: readInputs does). A test keeps the two in step.
 */
export const DECLARED_INPUTS: readonly string[] = [
  ...['operation', 'clientId', 'clientSecret', 'baseUrl', 'authUrl'],
  ...Object.keys(INPUT_DEFAULTS),
  JOB_STATUS_INPUT,
]

/**
 * The operations, each with the inputs it reads besides the connection and their parsers,
 * in the order they are checked. A task's fields are named after its inputs; any other
 * operation's input that is set is reported as ignored.
 */
const TASK_INPUTS = {
  create: {
    /** The new token's name, required. */
    name: parsers.readRequiredName,
    /** Also export the value into this environment variable. */
    envName: parsers.readEnvName,
    /** What to do when an active token with this exact name exists. */
    ifExists: parsers.oneOf(['create', 'reuse', 'fail']),
    /** Whether the post step revokes the created token at the end of the job. */
    revokeOnExit: parsers.readRevokeOnExit,
    /** Also write the value to a new 0600 file under RUNNER_TEMP (output tokenFile). */
    writeTokenFile: parsers.readBoolean,
  },
  /** `name`: filters, one per line, exact or `*` patterns; undefined lists every name. */
  list: { name: parsers.readNameFilters, state: parsers.oneOf(['active', 'revoked', 'all']) },
  revoke: { tokenId: parsers.readTokenId },
  cleanup: {
    /** Filters as for list; undefined selects every name. */
    name: parsers.readNameFilters,
    /** Revoke only tokens older than this; undefined selects any age. */
    olderThan: parsers.readDuration,
    /** Keep this many of the newest active tokens of each name, whatever their age. */
    keep: parsers.wholeNumber(0, 1000),
    /** Ids of tokens never revoked, whatever their age or keep (a rotation's new token). */
    keepIds: parsers.readKeepIds,
    dryRun: parsers.readBoolean,
    /** Revokes in flight at once. */
    concurrency: parsers.wholeNumber(1, 32),
  },
  /** Finds active tokens matching `name` (filters as for list) older than `olderThan`. */
  audit: { name: parsers.readNameFilters, olderThan: parsers.readAuditAge },
} satisfies Record<string, Partial<Record<Optional, parsers.Parser<unknown>>>>
type Operation = keyof typeof TASK_INPUTS
const OPERATIONS = Object.keys(TASK_INPUTS) as Operation[]
/** The inputs an operation reads besides the connection (the command line's flags too). */
export const inputsOf = (operation: Operation): string[] => Object.keys(TASK_INPUTS[operation])
// The inputs that some operations read and the others ignore.
const TASK_SPECIFIC = [...new Set(Object.values(TASK_INPUTS).flatMap(Object.keys))] as Optional[]

/** What the parsers of an operation's inputs make of them: its task, but for `operation`. */
type Parsed<P> = { [K in keyof P]: P[K] extends parsers.Parser<infer T> ? T : never }
type TaskOf<O extends Operation> = { operation: O } & Parsed<(typeof TASK_INPUTS)[O]>
export type CreateTask = TaskOf<'create'>
export type ListTask = TaskOf<'list'>
export type RevokeTask = TaskOf<'revoke'>
export type CleanupTask = TaskOf<'cleanup'>
export type AuditTask = TaskOf<'audit'>
export type Task = CreateTask | ListTask | RevokeTask | CleanupTask | AuditTask

/** Reads one raw input by name (`core.getInput`: trimmed, `''` when unset). */
type InputSource = (name: string) => string

export type Inputs = ReturnType<typeof readInputs>
/** Where and how to reach the platform. */
export type Connection = ReturnType<typeof readConnection>

/**
 * Reads and checks every input, or throws an InputError naming the first bad one.
 * Nothing is sent before this returns, so a bad input costs no request. `given` names
 * the inputs the step was given, as the runner spells their variables (refuseUnknownInputs).
 */
export function readInputs(read: InputSource, secrets: SecretMasker, given: readonly string[]) {
  // Masked before any other input is read or checked: the runner hides a value only from
  // the moment it is registered. readConnection registers it again, which is harmless.
  secrets.add(read('clientSecret'))
  // Before any other check: a misspelt input explains the one found missing.
  refuseUnknownInputs(given, DECLARED_INPUTS)
  const raw = read('operation')
  if (!raw) throw new InputError('operation', `is required: one of ${OPERATIONS.join(', ')}.`)
  const operation = parsers.oneOf(OPERATIONS)(raw, 'operation')
  const connection = readConnection(read, secrets)
  const value = withDefaults(read)
  const summary = parsers.readBoolean(value('summary'), 'summary')

  const taskParsers: Partial<Record<Optional, parsers.Parser<unknown>>> = TASK_INPUTS[operation]
  const fields = Object.entries(taskParsers).map(
    ([input, parse]) => [input, parse(value(input as Optional), input)] as const,
  )
  const task = { operation, ...Object.fromEntries(fields) } as Task
  // Without a selector, a cleanup would revoke every token of the project.
  if (task.operation === 'cleanup' && task.name === undefined && task.olderThan === undefined)
    throw new InputError(
      'name',
      "or 'olderThan' is required for operation cleanup: say which tokens to revoke (name: ci-*, olderThan: 30d). Nothing was revoked.",
    )
  return {
    connection,
    task,
    summary,
    /** Refuse to act on tokens of any other project (a UUID); undefined checks nothing. */
    expectedProjectId: parsers.readProjectId(value('expectedProjectId')),
    /** Inputs that were set but that this operation does not use. */
    warnings: TASK_SPECIFIC.filter(
      (input) => !(input in taskParsers) && value(input) !== INPUT_DEFAULTS[input],
    ).map((input) => `Input '${input}' is not used by operation ${operation}; it is ignored.`),
  }
}

/**
 * The inputs that reach the platform: credentials, URLs, timeout and retries. The
 * post step reads them on their own, the client secret masked first.
 */
export function readConnection(read: InputSource, secrets: SecretMasker) {
  const clientSecret = read('clientSecret')
  secrets.add(clientSecret)
  const clientId = read('clientId')
  const required = (input: string, what: string) =>
    new InputError(input, `is required: the API client ${what}, from a secret. ${FORK_HINT}`)
  if (!clientId) throw required('clientId', 'id')
  if (!clientSecret) throw required('clientSecret', 'secret')
  const authUrl = parsers.readUrl(read('authUrl'), 'authUrl', 'the auth service base URL')
  const value = withDefaults(read)
  const seconds = (input: Optional, min: number, max: number) =>
    parsers.wholeNumber(min, max, 'a whole number of seconds')(value(input), input) * 1000
  return {
    clientId,
    clientSecret,
    /** REST API base, without a trailing `/`. */
    baseUrl: parsers.readUrl(read('baseUrl'), 'baseUrl', 'the REST API base URL'),
    /** The auth service's base URL, or its token endpoint, without a trailing `/`. */
    authUrl,
    timeoutMs: seconds('timeout', 1, 600),
    /** Retries of a transient failure, on top of the first attempt. */
    retries: parsers.wholeNumber(0, 10)(value('retries'), 'retries'),
    /** The whole step's time budget, retries and waits included; 0 for no limit. */
    totalTimeoutMs: seconds('totalTimeout', 0, 21_600),
  }
}

/** An optional input's value, its default when it was left empty. */
const withDefaults = (read: InputSource) => (input: Optional) =>
  read(input) || INPUT_DEFAULTS[input]
