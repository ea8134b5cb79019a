import type { TokenApi } from '../platform/client.js'
import type { Task } from '../inputs.js'
import { create, type CreateResult } from './create.js'
import { list, type ListResult } from './list.js'
import { revoke, type RevokeResult } from './revoke.js'

export type Result = CreateResult | ListResult | RevokeResult

/** Runs the operation the inputs asked for. */
export function perform(client: TokenApi, task: Task): Promise<Result> {
  switch (task.operation) {
    case 'create':
      return create(client, task)
    case 'list':
      return list(client, task)
    case 'revoke':
      return revoke(client, task)
  }
}
