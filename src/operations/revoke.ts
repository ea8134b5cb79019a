// The revoke operation: one token by id, idempotently.
import type { TokenApi } from '../platform/client.js'
import type { RevokeTask } from '../inputs/task.js'
import type { TokenRecord } from '../shared/records.js'

export interface RevokeResult {
  operation: 'revoke'
  token: TokenRecord
  /** The token was revoked before this step: the step changed nothing. */
  alreadyRevoked: boolean
}

export async function revoke(client: TokenApi, task: RevokeTask): Promise<RevokeResult> {
  const { token, alreadyRevoked } = await client.revokeToken(task.tokenId)
  return { operation: 'revoke', token, alreadyRevoked }
}
