// Maps the operation asked for to the module that performs it.
import type { CleanupTask, CreateTask, ListTask, RevokeTask, Task } from '../inputs/task.js'
import type { TokenApi } from '../platform/client.js'
import { cleanup, type CleanupResult } from './cleanup.js'
import { create, type CreateResult } from './create.js'
import { list, type ListResult } from './list.js'
import type { OperationContext } from './context.js'
import { revoke, type RevokeResult } from './revoke.js'

export type Result = CreateResult | ListResult | RevokeResult | CleanupResult

/**
 * An operation done: the task asked for, beside the result, which holds only what the
 * platform returned and what happened (report/ reads the settings from the task).
 */
export type Done =
  | { operation: 'create'; task: CreateTask; result: CreateResult }
  | { operation: 'list'; task: ListTask; result: ListResult }
  | { operation: 'revoke'; task: RevokeTask; result: RevokeResult }
  | { operation: 'cleanup'; task: CleanupTask; result: CleanupResult }

/** Runs the operation the inputs asked for. */
export async function perform(
  client: TokenApi,
  task: Task,
  context: OperationContext,
): Promise<Done> {
  switch (task.operation) {
    case 'create':
      return { operation: 'create', task, result: await create(client, task, context.create) }
    case 'list':
      return { operation: 'list', task, result: await list(client, task) }
    case 'revoke':
      return { operation: 'revoke', task, result: await revoke(client, task) }
    case 'cleanup':
      return { operation: 'cleanup', task, result: await cleanup(client, task, context) }
  }
}
