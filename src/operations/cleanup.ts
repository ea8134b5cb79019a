// The cleanup operation: revoke what the plan selects, a few at a time, slowing down when throttled.
import { AdaptivePool, AGAIN } from '../adaptive-pool.js'
import type { Clock } from '../clock.js'
import type { CleanupTask } from '../task.js'
import type { Logger } from '../logger.js'
import { RequestError } from '../platform/errors.js'
import type { TokenApi } from '../platform/token-api.js'
import { findById, nameAndId, type TokenRecord } from '../records.js'
import { planCleanup, type KeptToken } from './cleanup-plan.js'

export interface NotRevoked {
  token: TokenRecord
  /** Why the platform did not revoke it (no secret: server details are scrubbed). */
  reason: string
}

export interface CleanupResult {
  operation: 'cleanup'
  task: CleanupTask
  /** Revoked tokens (with dryRun, the ones that would be), newest first. */
  revoked: TokenRecord[]
  kept: KeptToken[]
  notRevoked: NotRevoked[]
  /** When the ages were measured. */
  now: number
}

// A revoke throttled even after its own retries goes to the back of the queue this many times.
const THROTTLED_ROUNDS = 10
// The pause for the whole batch after such a revoke (its last 429 was not waited for).
const THROTTLE_PAUSE_MS = 1000

/**
 * Revokes the tokens a selection chooses (see planCleanup), `concurrency` at a
 * time, slowing down when the platform rate-limits. A token that cannot be revoked
 * does not stop the others; it is reported in `notRevoked`.
 */
export async function cleanup(
  client: TokenApi,
  task: CleanupTask,
  { clock, log }: { clock: Clock; log: Logger },
): Promise<CleanupResult> {
  const now = clock.now()
  const plan = planCleanup(await client.listTokens(), task, now)
  for (const { token, why } of plan.kept) {
    if (why === 'unreadable date') {
      log.warning(
        `Token ${nameAndId(token)} has a createdAt that cannot be read (${JSON.stringify(token.createdAt ?? null)}): its age is unknown, so it is not revoked.`,
      )
    }
  }
  const result = { operation: 'cleanup' as const, task, kept: plan.kept, now }
  if (task.dryRun) return { ...result, revoked: plan.revoke, notRevoked: [] }

  const pool = new AdaptivePool(task.concurrency, clock, log)
  const rounds = new Map<string, number>()
  // A refused revoke is looked up in one fresh list shared by the whole batch, not
  // one list per refusal: a restricted role can be refused hundreds of tokens.
  let fresh: Promise<TokenRecord[]> | undefined
  const lookup = async (tokenId: string) => {
    fresh ??= client.listTokens()
    return findById(await fresh, tokenId)
  }
  const outcomes = await pool.run(plan.revoke, async (token) => {
    try {
      const outcome = await client.revokeToken(token.id, {
        onThrottle: (delayMs) => {
          pool.throttled(delayMs)
        },
        lookup,
      })
      pool.succeeded()
      return { revoked: outcome.token }
    } catch (error) {
      if (!(error instanceof RequestError)) throw error
      const round = (rounds.get(token.id) ?? 0) + 1
      rounds.set(token.id, round)
      if (error.status === 429 && round < THROTTLED_ROUNDS) {
        pool.throttled(THROTTLE_PAUSE_MS)
        return AGAIN
      }
      return { failed: { token, reason: error.message } }
    }
  })
  return {
    ...result,
    revoked: outcomes.flatMap((o) => ('revoked' in o ? [o.revoked] : [])),
    notRevoked: outcomes.flatMap((o) => ('failed' in o ? [o.failed] : [])),
  }
}
