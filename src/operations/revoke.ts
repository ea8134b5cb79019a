import type { TokenApi } from '../client.js'
import type { RevokeTask } from '../inputs.js'
import type { TokenRecord } from '../records.js'

export interface RevokeResult {
  operation: 'revoke'
  token: TokenRecord
}

export async function revoke(client: TokenApi, task: RevokeTask): Promise<RevokeResult> {
  const token = await client.revokeToken(task.tokenId)
  return { operation: 'revoke', token }
}
