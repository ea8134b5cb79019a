// The cleanup operation: revoke what the plan selects, at the platform's pace, and settle the refusals.
import type { Logger } from '../shared/text.js'
import type { Clock, Deadline, StopCause } from '../shared/time.js'
import type { CleanupTask } from '../inputs/read.js'
import { settleRefusals, type Settled, type TokenApi } from '../platform/client.js'
import {
  DeadlineError,
  RequestError,
  ThrottledError,
  UnsettledRevokeError,
} from '../shared/errors.js'
import { newestFirst, projectOf, type ListedProject, type TokenRecord } from '../shared/records.js'
import { planCleanup, type KeptToken } from './cleanup-plan.js'
import { Pool, type Sent } from './pool.js'

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
  /** Tokens the cleanup selected and could not revoke, and why (scrubbed server text). */
  notRevoked: { token: TokenRecord; reason: string }[]
  /** Tokens not revoked because totalTimeout ran out, or the step was cancelled, first. */
  left: TokenRecord[]
  /** The project the listed records belong to, for the summary. */
  project: ListedProject
  /** What ends the step's budget, or ended it: for the message when some were left. */
  stop: StopCause
  /** When the ages were measured, on the clock `ages` names. */
  now: number
  ages: AgeClock
}

/**
 * Whose clock measures ages: the platform's, which dated the tokens (the Date header of the
 * list answer; `skewMs` is how far the runner's clock is behind it, negative: ahead), or
 * without a Date header the runner's, all there is.
 */
export type AgeClock = { by: 'platform'; skewMs: number } | { by: 'runner' }

/**
 * The project's tokens, which project they belong to, and `now` on the clock their ages are
 * measured on. A self-hosted runner's clock drifts: days off would revoke tokens hours old.
 */
export async function listWithClock(client: TokenApi, clock: Clock) {
  const tokens = await client.listTokens()
  const runnerNow = clock.now()
  const platformNow = client.platformTime(runnerNow)
  const ages: AgeClock =
    platformNow === undefined
      ? { by: 'runner' }
      : { by: 'platform', skewMs: platformNow - runnerNow }
  return { tokens, project: projectOf(tokens), now: platformNow ?? runnerNow, ages }
}

/** What became of one revoke: an answer or a failure, a refusal to settle, or none (left). */
type End = Settled | { tokenId: string; unsettled: UnsettledRevokeError } | undefined

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
  const { tokens, project, now, ages } = await listWithClock(client, clock)
  const plan = planCleanup(tokens, task, now)
  const send = async (token: TokenRecord, attemptsUsed: number): Promise<Sent<End>> => {
    try {
      // Refusals are settled below, all with one list fetched after the last of them.
      const options = { pooled: { attemptsUsed }, settle: 'later' as const }
      return { done: await client.revokeToken(token.id, options) }
    } catch (error) {
      if (error instanceof ThrottledError) return { throttled: error.throttle }
      if (!(error instanceof RequestError)) throw error
      // Not sent in time: left. With mayHaveTakenEffect, the message says it may have.
      if (error instanceof DeadlineError && !error.mayHaveTakenEffect) return { done: undefined }
      const unsettled = error instanceof UnsettledRevokeError
      return { done: unsettled ? { tokenId: token.id, unsettled: error } : { error } }
    }
  }
  const ends: End[] = task.dryRun
    ? plan.revoke.map((token) => ({ token, alreadyRevoked: false }))
    : // One pool owns every send of a revoke: a 429 hands the request back to it. Left: out
      // of time before it was sent, or before its 429's wait was over.
      await new Pool(task.concurrency, clock, deadline, log).run(plan.revoke, send, () => undefined)
  const refusals = ends.flatMap((end) => (end !== undefined && 'unsettled' in end ? [end] : []))
  const settled = await settleRefusals(() => client.listTokens(), refusals)
  const revoked: TokenRecord[] = []
  const revokedElsewhere: TokenRecord[] = []
  // These two in the plan's order: newest first.
  const notRevoked: CleanupResult['notRevoked'] = []
  const left: TokenRecord[] = []
  plan.revoke.forEach((token, i) => {
    const sent = ends[i]
    const end = sent !== undefined && 'unsettled' in sent ? settled.shift() : sent
    if (end === undefined) left.push(token)
    else if ('error' in end) notRevoked.push({ token, reason: end.error.message })
    else (end.alreadyRevoked ? revokedElsewhere : revoked).push(end.token)
  })
  return {
    operation: 'cleanup',
    revoked: newestFirst(revoked),
    revokedElsewhere: newestFirst(revokedElsewhere),
    kept: plan.kept,
    notRevoked,
    left,
    project,
    // Read last: a cancel may have come while the revokes ran.
    stop: deadline.cause(),
    now,
    ages,
  }
}
