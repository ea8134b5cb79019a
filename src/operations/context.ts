// What every operation is given besides the client.
import type { Clock } from '../shared/time.js'
import type { Deadline } from '../shared/time.js'
import type { Logger } from '../shared/text.js'
import type { CreateOptions } from '../platform/client.js'

/** What operations get besides the client: time, the log and the step's budget. */
export interface OperationContext {
  clock: Clock
  log: Logger
  deadline: Deadline
  /** create with revokeOnExit: what is learnt of the create is saved for the post step. */
  create?: CreateOptions
}
