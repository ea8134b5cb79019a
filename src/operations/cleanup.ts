// The cleanup operation: revoke what the plan selects, at the platform's pace, and settle the refusals.
import type { StopCause } from '../shared/deadline.js'
import type { CleanupTask } from '../inputs/task.js'
import {
  DeadlineError,
  RequestError,
  ThrottledError,
  UnsettledRevokeError,
} from '../platform/errors.js'
import type { TokenApi } from '../platform/token-api.js'
import { newestFirst, newestFirstBy, type TokenRecord } from '../shared/records.js'
import { planCleanup, type KeptToken } from './cleanup-plan.js'
import type { OperationContext } from './context.js'
import { Scheduler, type Sent } from './scheduler.js'
import { settleRefusals, type NotRevoked, type Unsettled } from './settle-refusals.js'

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
 * time and at the pace the platform allows (Scheduler). A token that cannot be revoked
 * does not stop the others; it is reported in `notRevoked`. When totalTimeout runs
 * out, or the step is cancelled, no more revokes start: the rest are reported in `left`.
 */
export async function cleanup(
  client: TokenApi,
  task: CleanupTask,
  { clock, log, deadline }: OperationContext,
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

  // One scheduler owns every send of a revoke: a 429 hands the request back to it.
  const scheduler = new Scheduler(task.concurrency, clock, deadline, log)
  const ends = await scheduler.run(
    plan.revoke,
    async (token, attemptsUsed): Promise<Sent<RevokeEnd>> => {
      try {
        const revoked = await client.revokeToken(token.id, {
          scheduled: { attemptsUsed },
          // Settled below, all with one list fetched after the last refusal.
          settle: 'later',
        })
        return { done: { revoked: revoked.token } }
      } catch (error) {
        if (error instanceof ThrottledError) return { throttled: error.throttle }
        if (error instanceof UnsettledRevokeError) return { done: { unsettled: { token, error } } }
        if (!(error instanceof RequestError)) throw error
        if (error instanceof DeadlineError && !error.mayHaveTakenEffect) {
          return { done: { left: token } }
        }
        // With mayHaveTakenEffect, the message says that it may have taken effect all the same.
        return { done: { failed: { token, reason: error.message } } }
      }
    },
    // Out of time before it was sent, or before its 429's wait was over.
    (token) => ({ left: token }),
  )
  const settled = await settleRefusals(
    client,
    ends.flatMap((o) => ('unsettled' in o ? [o.unsettled] : [])),
  )
  return {
    ...result,
    revoked: newestFirst([
      ...ends.flatMap((o) => ('revoked' in o ? [o.revoked] : [])),
      ...settled.revoked,
    ]),
    revokedElsewhere: newestFirst(settled.revokedElsewhere),
    notRevoked: newestFirstBy(
      [...ends.flatMap((o) => ('failed' in o ? [o.failed] : [])), ...settled.notRevoked],
      ({ token }) => token,
    ),
    left: ends.flatMap((o) => ('left' in o ? [o.left] : [])),
    // Read last: a cancel may have come while the revokes ran.
    stop: deadline.cause(),
  }
}

/** What became of one revoke the scheduler sent. */
type RevokeEnd =
  | { revoked: TokenRecord }
  | { failed: NotRevoked }
  | { left: TokenRecord }
  | { unsettled: Unsettled }
