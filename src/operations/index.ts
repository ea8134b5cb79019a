// Maps the operation asked for to the module that performs it.
import type { Clock } from '../shared/clock.js'
import type { Deadline } from '../shared/deadline.js'
import type { Task } from '../inputs/task.js'
import type { Logger } from '../shared/logger.js'
import type { TokenApi } from '../platform/token-api.js'
import { cleanup, type CleanupResult } from './cleanup.js'
import { create, type CreateResult } from './create.js'
import { list, type ListResult } from './list.js'
import { revoke, type RevokeResult } from './revoke.js'

export type Result = CreateResult | ListResult | RevokeResult | CleanupResult

/** What operations get besides the client: time, the log and the step's budget. */
export interface OperationContext {
  clock: Clock
  log: Logger
  deadline: Deadline
}

/** Runs the operation the inputs asked for. */
export function perform(client: TokenApi, task: Task, context: OperationContext): Promise<Result> {
  switch (task.operation) {
    case 'create':
      return create(client, task)
    case 'list':
      return list(client, task)
    case 'revoke':
      return revoke(client, task)
    case 'cleanup':
      return cleanup(client, task, context)
  }
}
