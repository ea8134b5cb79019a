// The cleanup operation: revoke what the plan selects, at the platform's pace, and settle the refusals.
import type { Logger } from '../shared/text.js'
import type { Clock, Deadline, StopCause } from '../shared/time.js'
import type { CleanupTask } from '../inputs/read.js'
import { settleRefusals, type TokenApi } from '../platform/client.js'
import {
  DeadlineError,
  RequestError,
  ThrottledError,
  UnsettledRevokeError,
} from '../shared/errors.js'
import { newestFirst, newestFirstBy, type TokenRecord } from '../shared/records.js'
import { planCleanup, type KeptToken } from './cleanup-plan.js'
import { Pool, type Sent } from './pool.js'

/** A token the cleanup selected and could not revoke, and why (scrubbed server text). */
export interface NotRevoked {
  token: TokenRecord
  reason: string
}

export interface CleanupResult {
  operation: 'cleanup'
  /** Tokens this step revoked (with dryRun, the ones it would), newest first. */
  revoked: TokenRecord[]
  /**
   * Tokens someone else revoked while this cleanup ran (its revoke was refused, and a list
   * fetched after that showed them revoked): counted as revoked, never as a failure.
   */
  revokedElsewhere: TokenRecord[]
  kept: KeptToken[]
  notRevoked: NotRevoked[]
  /** Tokens not revoked because totalTimeout ran out, or the step was cancelled, first. */
  left: TokenRecord[]
  /** What ends the step's budget, or ended it: for the message when some were left. */
  stop: StopCause
  /** When the ages were measured, on the clock `ages` names. */
  now: number
  /** Whose clock measured the ages: see AgeClock. */
  ages: AgeClock
}

/**
 * Ages are measured on the platform's clock, which dated the tokens: the Date header of
 * the list answer. `skewMs` is how far the runner's clock is behind it (negative: ahead).
 * Without a Date header, the runner's clock is all there is.
 */
type AgeClock = { by: 'platform'; skewMs: number } | { by: 'runner' }

/**
 * Revokes the tokens a selection chooses (see planCleanup), at most `concurrency` at a
 * time and at the pace the platform allows (Pool). A token that cannot be revoked
 * does not stop the others; it is reported in `notRevoked`. When totalTimeout runs
 * out, or the step is cancelled, no more revokes start: the rest are reported in `left`.
 */
export async function cleanup(
  client: TokenApi,
  task: CleanupTask,
  { clock, log, deadline }: { clock: Clock; log: Logger; deadline: Deadline },
): Promise<CleanupResult> {
  const tokens = await client.listTokens()
  const runnerNow = clock.now()
  const platformNow = client.platformTime(runnerNow)
  // A self-hosted runner's clock drifts: days off would revoke tokens hours old.
  const now = platformNow ?? runnerNow
  const ages: AgeClock =
    platformNow === undefined
      ? { by: 'runner' }
      : { by: 'platform', skewMs: platformNow - runnerNow }
  const plan = planCleanup(tokens, task, now)
  const result = {
    operation: 'cleanup' as const,
    kept: plan.kept,
    now,
    ages,
  }
  if (task.dryRun) {
    const stop = deadline.cause()
    return { ...result, revoked: plan.revoke, revokedElsewhere: [], notRevoked: [], left: [], stop }
  }

  // One pool owns every send of a revoke: a 429 hands the request back to it.
  const pool = new Pool(task.concurrency, clock, deadline, log)
  const ends = await pool.run(
    plan.revoke,
    async (token, attemptsUsed): Promise<Sent<End>> => {
      try {
        // Refusals are settled below, all with one list fetched after the last of them.
        const options = { pooled: { attemptsUsed }, settle: 'later' as const }
        return { done: { token, revoked: (await client.revokeToken(token.id, options)).token } }
      } catch (error) {
        if (error instanceof ThrottledError) return { throttled: error.throttle }
        if (error instanceof UnsettledRevokeError) return { done: { token, unsettled: error } }
        if (!(error instanceof RequestError)) throw error
        // Not sent in time: left. With mayHaveTakenEffect, the message says it may have.
        if (error instanceof DeadlineError && !error.mayHaveTakenEffect) return { done: { token } }
        return { done: { token, reason: error.message } }
      }
    },
    // Out of time before it was sent, or before its 429's wait was over.
    (token): End => ({ token }),
  )
  const refused = ends.filter((end) => end.unsettled !== undefined)
  const settled = await settleRefusals(
    () => client.listTokens(),
    refused.flatMap(({ token, unsettled }) =>
      unsettled === undefined ? [] : [{ tokenId: token.id, unsettled }],
    ),
  )
  refused.forEach((end, i) => {
    const outcome = settled[i]
    if (outcome === undefined) return
    if ('error' in outcome) end.reason = outcome.error.message
    else if (outcome.alreadyRevoked) end.elsewhere = outcome.token
    else end.revoked = outcome.token
  })
  const of = (pick: (end: End) => TokenRecord | undefined) =>
    newestFirst(ends.flatMap((end) => pick(end) ?? []))
  return {
    ...result,
    revoked: of((end) => end.revoked),
    revokedElsewhere: of((end) => end.elsewhere),
    notRevoked: newestFirstBy(
      ends.flatMap(({ token, reason }) => (reason === undefined ? [] : [{ token, reason }])),
      ({ token }) => token,
    ),
    left: ends.flatMap((end) =>
      (end.unsettled ?? end.revoked ?? end.elsewhere ?? end.reason) === undefined
        ? [end.token]
        : [],
    ),
    // Read last: a cancel may have come while the revokes ran.
    stop: deadline.cause(),
  }
}

/**
 * What became of one token the pool sent: revoked, by this step or (settled) someone else,
 * refused with a reason, refused and waiting for the list to settle it, or, with none of
 * those, left (not sent before totalTimeout ran out or the step was cancelled).
 */
interface End {
  token: TokenRecord
  revoked?: TokenRecord
  elsewhere?: TokenRecord
  reason?: string
  unsettled?: UnsettledRevokeError
}
