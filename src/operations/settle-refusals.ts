// After a cleanup's revokes: every refused or unclear one settled by one list, fetched after the last of them.
import { messageOf } from '../shared/errors.js'
import { RequestError, type UnsettledRevokeError } from '../platform/errors.js'
import { settleRevoke } from '../platform/settle-revoke.js'
import type { TokenApi } from '../platform/token-api.js'
import { findById, type TokenRecord } from '../shared/records.js'

/** A token the cleanup selected and could not revoke. */
export interface NotRevoked {
  token: TokenRecord
  /** Why the platform did not revoke it (no secret: server details are scrubbed). */
  reason: string
}

/** A revoke the platform refused, or answered unclearly, waiting for the list to settle it. */
export interface Unsettled {
  token: TokenRecord
  error: UnsettledRevokeError
}

export interface Settled {
  /** Revoked by this cleanup after all: an attempt that seemed to fail had gone through. */
  revoked: TokenRecord[]
  /** Revoked by someone else meanwhile (another job, a person): counted as revoked. */
  revokedElsewhere: TokenRecord[]
  notRevoked: NotRevoked[]
}

/**
 * Two cleanups over the same tokens race: a revoke of a token the other has just revoked
 * is refused (409, or 400 or 404 on some platforms). Only a list fetched after the refusal
 * can tell that from a real refusal, and one list fetched after the last refusal settles
 * them all: a shared list fetched at the first one would show the later ones still active.
 * When that list cannot be had, every refusal stands, saying so.
 */
export async function settleRefusals(
  client: TokenApi,
  unsettled: readonly Unsettled[],
): Promise<Settled> {
  const settled: Settled = { revoked: [], revokedElsewhere: [], notRevoked: [] }
  if (unsettled.length === 0) return settled
  let tokens: TokenRecord[]
  try {
    tokens = await client.listTokens()
  } catch (error) {
    const why = ` Whether it was revoked already could not be told: listing the tokens failed too: ${messageOf(error)}`
    settled.notRevoked.push(
      ...unsettled.map(({ token, error }) => ({ token, reason: error.message + why })),
    )
    return settled
  }
  for (const { token, error } of unsettled) {
    try {
      const outcome = settleRevoke(token.id, error, findById(tokens, token.id))
      if (outcome.alreadyRevoked) settled.revokedElsewhere.push(outcome.token)
      else settled.revoked.push(outcome.token)
    } catch (refusal) {
      if (!(refusal instanceof RequestError)) throw refusal
      settled.notRevoked.push({ token, reason: refusal.message })
    }
  }
  return settled
}
