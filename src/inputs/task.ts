// What a step is asked to do: the operation and its settings, as the input reader hands them on.

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

/**
 * When the post step revokes the token a create made: `always` (revokeOnExit: true),
 * `failure` (only when the job did not succeed), or `never` (false).
 */
export type RevokeOnExit = 'always' | 'failure' | 'never'

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
