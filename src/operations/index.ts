import type { Clock } from '../clock.js'
import type { Task } from '../inputs.js'
import type { Logger } from '../logger.js'
import type { TokenApi } from '../platform/client.js'
import { cleanup, cleanupFailure, type CleanupResult } from './cleanup.js'
import { create, type CreateResult } from './create.js'
import { list, type ListResult } from './list.js'
import { revoke, type RevokeResult } from './revoke.js'

export type Result = CreateResult | ListResult | RevokeResult | CleanupResult

/** Runs the operation the inputs asked for. */
export function perform(
  client: TokenApi,
  task: Task,
  context: { clock: Clock; log: Logger },
): Promise<Result> {
  switch (task.operation) {
    case 'create':
      return create(client, task, context.log)
    case 'list':
      return list(client, task)
    case 'revoke':
      return revoke(client, task)
    case 'cleanup':
      return cleanup(client, task, context)
  }
}

/** Why a result, written out in full, still fails the step (some tokens not revoked). */
export function unfinished(result: Result): string | undefined {
  return result.operation === 'cleanup' ? cleanupFailure(result) : undefined
}
