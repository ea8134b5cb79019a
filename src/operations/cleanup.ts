// The cleanup operation: revoke what the plan selects, at the platform's pace, and settle the refusals.
import type { Logger } from '../shared/text.js'
import { agesNow, type Clock, type Deadline } from '../shared/time.js'
import type { CleanupTask } from '../inputs/read.js'
import { settleRefusals, type Settled, type TokenApi } from '../platform/client.js'
import {
  DeadlineError,
  RequestError,
  ThrottledError,
  UnsettledRevokeError,
} from '../shared/errors.js'
import { findById, newestFirst, projectOf, type TokenRecord } from '../shared/records.js'
import { planCleanup } from './cleanup-plan.js'
import { Pool, type Sent } from './pool.js'

/**
 * What a cleanup did, each field said where cleanup returns it, and when and on whose clock
 * the ages were measured.
 */
export type CleanupResult = Awaited<ReturnType<typeof cleanup>>

/**
 * What became of one revoke: an answer or a failure, a refusal to settle, one in flight when
 * the time ran out (`unsure`: settled by a list too), or none (left).
 */
type End =
  | Settled
  | { tokenId: string; unsettled: UnsettledRevokeError }
  | { tokenId: string; unsure: DeadlineError }
  | undefined

/** How long after totalTimeout the list that settles the revokes still in flight may take. */
const SETTLE_GRACE_MS = 5_000

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
) {
  const tokens = await client.listTokens()
  const aged = agesNow(clock, (at) => client.platformTime(at))
  const plan = planCleanup(tokens, task, aged.now)
  // The longest a revoke took to be answered: how long one in flight may still take.
  let slowestMs = 0
  const send = async ({ id: tokenId }: TokenRecord, attemptsUsed: number): Promise<Sent<End>> => {
    const sentAt = clock.now()
    try {
      // Refusals are settled below, all with one list fetched after the last of them.
      const options = { pooled: { attemptsUsed }, settle: 'later' as const }
      const answer = await client.revokeToken(tokenId, options)
      slowestMs = Math.max(slowestMs, clock.now() - sentAt)
      return { done: answer }
    } catch (error) {
      if (error instanceof ThrottledError) return { throttled: error.throttle }
      if (!(error instanceof RequestError)) throw error
      // Out of time before it was sent: left; after it was: settled by the list below.
      if (error instanceof DeadlineError) {
        const done = error.mayHaveTakenEffect ? { tokenId, unsure: error } : undefined
        return { done, failed: true }
      }
      const unsettled = error instanceof UnsettledRevokeError
      return { done: unsettled ? { tokenId, unsettled: error } : { error }, failed: true }
    }
  }
  // Not sent again, its 429's wait outlasting the time left: not revoked, with what the 429
  // said. Never sent, or the time already out (run out, or a cancel): left, as every other
  // (the step's failure says why once).
  const unsent = (_: TokenRecord, throttle?: { why: string }): End => {
    if (throttle === undefined || deadline.expired()) return undefined
    const end = `Its wait ends after ${deadline.describe()} does: run the cleanup again later.`
    return { error: new RequestError(`${throttle.why} ${end}`, 429) }
  }
  const ends: End[] = task.dryRun
    ? plan.revoke.map((token) => ({ token, alreadyRevoked: false }))
    : // One pool owns every send of a revoke: a 429 hands the request back to it.
      await new Pool(task.concurrency, clock, deadline, log).run(plan.revoke, send, unsent)
  const settled = await settleEnds(client, ends, { clock, deadline, slowestMs })
  const revoked: TokenRecord[] = []
  const revokedElsewhere: TokenRecord[] = []
  // These in the plan's order: newest first.
  const notRevoked: { token: TokenRecord; reason: string }[] = []
  const left: TokenRecord[] = []
  const unknown: TokenRecord[] = []
  plan.revoke.forEach((token, i) => {
    const end = settled[i]
    if (end === 'unknown') unknown.push(token)
    else if (end === undefined) left.push(token)
    else if ('error' in end) notRevoked.push({ token, reason: end.error.message })
    else (end.alreadyRevoked ? revokedElsewhere : revoked).push(end.token)
  })
  return {
    operation: 'cleanup' as const,
    /** Tokens this step revoked (with dryRun, the ones it would), newest first. */
    revoked: newestFirst(revoked),
    /**
     * Tokens someone else revoked while this cleanup ran (its revoke was refused, and a list
     * fetched after that showed them revoked): counted as revoked, never as a failure.
     */
    revokedElsewhere: newestFirst(revokedElsewhere),
    kept: plan.kept,
    /** Tokens the cleanup selected and could not revoke, and why (scrubbed server text). */
    notRevoked,
    /** Tokens not revoked because totalTimeout ran out, or the step was cancelled, first. */
    left,
    /**
     * Tokens whose revoke was in flight when totalTimeout ran out, or the step was cancelled,
     * and that no list fetched afterwards could tell the fate of: they may have been revoked.
     */
    unknown,
    /** The project the listed records belong to, for the summary. */
    project: projectOf(tokens),
    /**
     * What ends the step's budget, or ended it: for the message when some were left. Read
     * last: a cancel may have come while the revokes ran.
     */
    stop: deadline.cause(),
    ...aged,
  }
}

/**
 * Each end settled, with one list fetched after the last of them: the refused revokes
 * (settleRefusals) and those in flight when the time ran out. A list shows each of those
 * revoked (this step's doing), still active (left), or, when it fails, is cut off, or the
 * step was cancelled, nothing: `unknown`, never not revoked. After totalTimeout, that list
 * has SETTLE_GRACE_MS, and is sent once the platform had time to end what it was doing
 * (twice the slowest revoke, half the grace at most).
 */
async function settleEnds(
  client: TokenApi,
  ends: readonly End[],
  { clock, deadline, slowestMs }: { clock: Clock; deadline: Deadline; slowestMs: number },
): Promise<(Settled | 'unknown' | undefined)[]> {
  const refusals = ends.flatMap((end) => (end !== undefined && 'unsettled' in end ? [end] : []))
  const unsure = ends.some((end) => end !== undefined && 'unsure' in end)
  if (unsure) {
    deadline.grace(SETTLE_GRACE_MS)
    await clock.sleep(Math.min(SETTLE_GRACE_MS / 2, 2 * slowestMs), deadline.stopSignal)
  }
  const listed = refusals.length > 0 || unsure ? client.listTokens() : undefined
  listed?.catch(() => undefined)
  const settled = await settleRefusals(() => listed ?? client.listTokens(), refusals)
  const tokens = await listed?.catch(() => undefined)
  return ends.map((end) => {
    if (end === undefined || !('unsure' in end || 'unsettled' in end)) return end
    if ('unsettled' in end) return settled.shift()
    const found = tokens && findById(tokens, end.tokenId)
    if (found?.state === 'revoked') return { token: found, alreadyRevoked: false }
    // Still active: left. Not listed, or in a state the action does not know: who can tell.
    return found?.state === 'active' ? undefined : 'unknown'
  })
}
