// What every operation is given besides the client.
import type { Clock } from '../shared/clock.js'
import type { Deadline } from '../shared/deadline.js'
import type { Logger } from '../shared/logger.js'
import type { CreateNotes } from './create.js'

/** What operations get besides the client: time, the log and the step's budget. */
export interface OperationContext {
  clock: Clock
  log: Logger
  deadline: Deadline
  /** create with revokeOnExit: told as the create goes, for the post step. */
  createNotes?: CreateNotes
}
