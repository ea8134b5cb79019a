// What the main step leaves for the post step (GITHUB_STATE, read back as STATE_*): every key, read and written here.
import type { RevokeOnExit } from '../inputs/parsers.js'
import type { CreateFacts } from '../platform/lost-create.js'
import type { Runner } from '../runner/github-runner.js'

const CREATE = 'create'
const TOKEN_FILE = 'tokenFile'

/**
 * A create with revokeOnExit, as the main step last saved it, and when to revoke its token:
 * at the end of every job, or only one that did not succeed.
 */
export type SavedCreate = CreateFacts & { when: Exclude<RevokeOnExit, 'never'> }

/**
 * The one writer of the post step's state, in the main step: each fact is written the
 * moment it is known, so that whatever fails after it, the post step still knows.
 */
export class PostState {
  constructor(private readonly runner: Pick<Runner, 'saveState'>) {}

  /** Saves a create's facts, whole, each time one is learnt (the last value saved wins). */
  createSaver(when: SavedCreate['when']): (facts: CreateFacts) => void {
    return (facts) => {
      this.runner.saveState(CREATE, JSON.stringify({ ...facts, when }))
    }
  }

  /** Before the token file is written: the post step deletes it whatever happens next. */
  tokenFile(path: string): void {
    this.runner.saveState(TOKEN_FILE, path)
  }
}

/**
 * Post step: the create the main step saved, or undefined: no create was sent with
 * revokeOnExit (another operation, a bad input, a reused token), or what was saved cannot
 * be read. Anything but `failure` revokes: a token saved to revoke is never kept by a
 * misread state.
 */
export function readSavedCreate(runner: Pick<Runner, 'getState'>): SavedCreate | undefined {
  let saved: Record<string, unknown> | null
  try {
    // Anything but an object has none of these fields, and is not read.
    saved = JSON.parse(runner.getState(CREATE) || '{}') as Record<string, unknown> | null
  } catch {
    return undefined
  }
  const { name, sentAt, written, id, refused, lost, when } = saved ?? {}
  if (typeof name !== 'string' || name === '' || !Number.isSafeInteger(sentAt)) return undefined
  return {
    name,
    sentAt: sentAt as number,
    written: written === true,
    ...(typeof id === 'string' && id !== '' ? { id } : {}),
    refused: refused === true,
    lost: lost === true,
    when: when === 'failure' ? 'failure' : 'always',
  }
}

/** Post step: the token file the main step was about to write, or undefined. */
export function savedTokenFile(runner: Pick<Runner, 'getState'>): string | undefined {
  return runner.getState(TOKEN_FILE) || undefined
}
