// Whether a refused or unclear revoke took effect, told from the token's record in a list fetched after it.
import type { TokenRecord } from '../shared/records.js'
import { UnknownTokenError, type UnsettledRevokeError } from './errors.js'
import type { RevokeAnswer } from './token-api.js'

/**
 * Settles a revoke from `found`, the token's record in a list fetched after the refusal
 * (an older list could show it active although another job has just revoked it). A
 * revoked record is a success: this call's own when an attempt of it may have revoked
 * the token, else someone else's (`alreadyRevoked`). No record: the project has no such
 * token. An active one: the refusal stands.
 */
export function settleRevoke(
  tokenId: string,
  unsettled: UnsettledRevokeError,
  found: TokenRecord | undefined,
): RevokeAnswer {
  if (found === undefined) {
    throw new UnknownTokenError(
      `no token with id ${tokenId} exists in the project: ${unsettled.message}`,
      unsettled.status,
    )
  }
  if (found.state === 'revoked') return { token: found, alreadyRevoked: !unsettled.mayHaveRevoked }
  throw unsettled.refusal
}
