// What the main step leaves for the post step (GITHUB_STATE, read back as STATE_*): every key, read and written here.
import { CREATE_STATES, type CreateRecord } from '../platform/create-life.js'
import { parseJson } from '../platform/api.js'
import type { Runner } from '../runner/start.js'

const CREATE = 'create'
const TOKEN_FILE = 'tokenFile'
/** A create record's fields, the only keys of what is saved. */
const CREATE_FIELDS = ['name', 'sentAt', 'lastInFlightAt', 'state', 'id', 'lostEarlier', 'when']

/**
 * The one writer of the post step's state, in the main step: each fact is written the
 * moment it is known, so that whatever fails after it, the post step still knows.
 */
export class PostState {
  constructor(private readonly runner: Pick<Runner, 'saveState'>) {}

  /** A create's record, whole, each time it changes, when the post step acts on it (revokeOnExit). */
  readonly create = (record: CreateRecord): void => {
    if (record.when === 'never') return
    // Field by field: whatever else an object holds stays out of the runner's files.
    this.runner.saveState(CREATE, JSON.stringify(record, CREATE_FIELDS))
  }

  /** Before the token file is written: the post step deletes it whatever happens next. */
  tokenFile(path: string): void {
    this.runner.saveState(TOKEN_FILE, path)
  }
}

/**
 * Post step: the create the main step recorded, or undefined: none was recorded (another
 * operation, a bad input, revokeOnExit false), or what was saved cannot be read. Anything but
 * `failure` revokes, and an unknown state is searched for: a token saved to revoke is never
 * kept by a misread state.
 */
export function readSavedCreate(runner: Pick<Runner, 'getState'>): CreateRecord | undefined {
  // Anything but an object (NOT_JSON too: what is not JSON) has none of these fields, and is not read.
  const saved = (parseJson(runner.getState(CREATE) || '{}') ?? {}) as Record<string, unknown>
  const { name, sentAt, lastInFlightAt, state, id, lostEarlier, when } = saved
  if (typeof name !== 'string' || name === '' || !Number.isSafeInteger(sentAt)) return undefined
  return {
    name,
    sentAt: sentAt as number,
    ...(Number.isSafeInteger(lastInFlightAt) && { lastInFlightAt: lastInFlightAt as number }),
    state: CREATE_STATES.find((known) => known === state) ?? 'unknown',
    ...(typeof id === 'string' && id !== '' && { id }),
    ...(lostEarlier === true && { lostEarlier }),
    when: when === 'failure' ? 'failure' : 'always',
  }
}

/** Post step: the token file the main step was about to write, or undefined. */
export function savedTokenFile(runner: Pick<Runner, 'getState'>): string | undefined {
  return runner.getState(TOKEN_FILE) || undefined
}
