// What the main step leaves for the post step (GITHUB_STATE, read back as STATE_*).
import type { RevokeOnExit } from '../inputs/task.js'
import type { CreateNotes } from '../operations/create.js'
import type { Runner } from '../runner/runner.js'
import type { Clock } from '../shared/clock.js'
import type { TokenRecord } from '../shared/records.js'

const TOKEN_ID = 'revokeOnExitTokenId'
const TOKEN_NAME = 'revokeOnExitTokenName'
const CREATE_SENT_AT = 'revokeOnExitSince'
const WHEN = 'revokeOnExitWhen'
const LOST_ANSWER = 'revokeOnExitLostAnswer'
const TOKEN_FILE = 'tokenFile'

/** A token the post step is to revoke at the end of the job. */
export type TokenToRevoke = Pick<TokenRecord, 'id' | 'name'>

/** A create sent with revokeOnExit: the post step looks for its token if its id never came. */
export interface CreateSent {
  name: string
  /** When the create was sent, in ms since the epoch (the runner's clock). */
  sentAt: number
  /** revokeOnExit: at the end of every job, or only one that did not succeed. */
  when: Exclude<RevokeOnExit, 'never'>
}

/**
 * The one writer of the post step's state, in the main step: each fact is written once,
 * the moment it is known, so that whatever fails after it, the post step still knows.
 */
export class PostState {
  constructor(
    private readonly runner: Pick<Runner, 'saveState'>,
    private readonly clock: Clock,
  ) {}

  /** What a create with revokeOnExit tells as it goes (see CreateNotes). */
  createNotes(when: CreateSent['when']): CreateNotes {
    return {
      sending: (name) => {
        this.runner.saveState(TOKEN_NAME, name)
        this.runner.saveState(CREATE_SENT_AT, String(this.clock.now()))
        this.runner.saveState(WHEN, when)
      },
      answerLost: () => {
        this.runner.saveState(LOST_ANSWER, 'true')
      },
      // The name was saved before the create was sent, and the answer was checked to carry it.
      created: (token) => {
        this.runner.saveState(TOKEN_ID, token.id)
      },
    }
  }

  /** Before the token file is written: the post step deletes it whatever happens next. */
  tokenFile(path: string): void {
    this.runner.saveState(TOKEN_FILE, path)
  }
}

/**
 * What the post step has to revoke: the token the main step created, when it learnt its
 * id; and the create to look for in the list, when its id never came, or when an attempt
 * got no answer and the create was sent again (the lost attempt's token may have landed).
 */
export type ToRevokeOnExit =
  | { when: CreateSent['when']; token: TokenToRevoke; search?: CreateSent }
  // No id saved: there is always a create to look for.
  | { when: CreateSent['when']; token?: undefined; search: CreateSent }

/**
 * Post step: what is left to revoke (see ToRevokeOnExit); undefined without revokeOnExit,
 * or for a reused token: nothing is ever created then, so nothing is saved.
 */
export function readToRevokeOnExit(runner: Runner): ToRevokeOnExit | undefined {
  const id = runner.getState(TOKEN_ID)
  const name = runner.getState(TOKEN_NAME)
  // Anything but `failure` revokes: a token saved to revoke is never kept by a misread state.
  const when: CreateSent['when'] = runner.getState(WHEN) === 'failure' ? 'failure' : 'always'
  const sentAt = Number(runner.getState(CREATE_SENT_AT) || NaN)
  const create = name && Number.isSafeInteger(sentAt) ? { name, sentAt, when } : undefined
  const lost = runner.getState(LOST_ANSWER) === 'true'
  if (id) {
    const token = name ? { id, name } : { id }
    return create !== undefined && lost ? { when, token, search: create } : { when, token }
  }
  return create === undefined ? undefined : { when, search: create }
}

/** Post step: the token file the main step was about to write, or undefined. */
export function savedTokenFile(runner: Runner): string | undefined {
  return runner.getState(TOKEN_FILE) || undefined
}
