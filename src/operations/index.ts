// Maps the operation asked for to the module that performs it.
import type { Task } from '../inputs/task.js'
import type { TokenApi } from '../platform/token-api.js'
import { cleanup, type CleanupResult } from './cleanup.js'
import { create, type CreateResult } from './create.js'
import { list, type ListResult } from './list.js'
import type { OperationContext } from './context.js'
import { revoke, type RevokeResult } from './revoke.js'

export type Result = CreateResult | ListResult | RevokeResult | CleanupResult

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
