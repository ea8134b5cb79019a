import type { TokenApi } from '../platform/client.js'
import type { CreateTask } from '../inputs.js'
import type { TokenRecord } from '../records.js'

export interface CreateResult {
  operation: 'create'
  /** The token, value included (already masked). */
  token: TokenRecord
  envName: string | undefined
}

export async function create(client: TokenApi, task: CreateTask): Promise<CreateResult> {
  const token = await client.createToken(task.name)
  return { operation: 'create', token, envName: task.envName }
}
