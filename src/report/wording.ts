// How results are put into words, shared by the log lines (report.ts) and the job summary (summary.ts), and the step's failure when a result still fails it.
import type { CleanupResult } from '../operations/cleanup.js'
import type { KeptToken } from '../operations/cleanup-plan.js'
import { auditFailure } from '../operations/audit.js'
import type { Outcome } from '../operations/index.js'
import { createdTime, nameAndId, newestFirst } from '../shared/records.js'
import type { RevokeOnExit, TokenRecord } from '../shared/records.js'
import { countTokens, formatAge, oneLine, quote, someOf, truncate } from '../shared/text.js'
import { stopped, type AgeClock } from '../shared/time.js'

/** Why the tokens in `left` were left: `totalTimeout ran out`, or `the step was cancelled`. */
export function leftBecause({ stop }: Pick<CleanupResult, 'stop'>): string {
  return stop.by === 'cancel' ? 'the step was cancelled' : 'totalTimeout ran out'
}

/** A token's age at `now` (`45d 3h`), or undefined when its createdAt cannot be read. */
export function ageOf(token: Pick<TokenRecord, 'createdAt'>, now: number): string | undefined {
  const created = createdTime(token)
  return created === undefined ? undefined : formatAge(now - created)
}

/**
 * Why a cleanup kept a token. For `keep`: the newest token of a name is most likely the one a
 * running mediator uses, so only an explicit `keep: 0` revokes it. That is said only of the
 * only token of a name a pattern took (`pr-123`): of a name in use, it would invite the one
 * change that cuts its mediator off.
 */
export function whyKept({ why, soleOfName }: KeptToken, keep: number): string {
  if (why === 'keepIds') return 'its id is in keepIds'
  if (why === 'unreadable name') return KEPT_NAMELESS
  if (why === 'unreadable date') return UNDATED
  const which = keep === 1 ? 'the newest of its name' : `one of the ${keep} newest of its name`
  const hint = soleOfName ? '; the only token its name has: keep: 0 revokes it too' : ''
  return `${which} (keep: ${keep})${hint}`
}

/** Why a token's age is unknown, for the summary. */
export const UNDATED = 'its createdAt cannot be read'

/**
 * A token whose createdAt cannot be read, for a warning that says what follows from it; the
 * value cut short, as a name is: the platform could send any length.
 */
export function ageUnknown(token: TokenRecord): string {
  const createdAt = token.createdAt === undefined ? 'none' : quote(token.createdAt, 100)
  return `Token ${nameAndId(token)} has a createdAt that cannot be read (${createdAt}): its age is unknown`
}

/** Why a token whose name is not text is never revoked by a cleanup. */
export const KEPT_NAMELESS =
  'its name is not text, so which name it belongs to, and whether it is the newest of that name, cannot be told'

/**
 * What a create says of its token's end: revoked at the end of the job, and when. Nothing
 * for a reused token: it was never this step's, and the post step leaves it alone.
 */
export function revokeOnExitNote(when: RevokeOnExit, reused = false): string | undefined {
  if (when === 'never' || reused) return undefined
  return when === 'always'
    ? 'It will be revoked at the end of the job (revokeOnExit).'
    : 'It will be revoked at the end of the job if the job does not succeed (revokeOnExit: failure).'
}

/** How far apart the two clocks may be before a cleanup warns about it. */
const CLOCK_SKEW_WARNING_MS = 5 * 60_000

/**
 * What a cleanup says about the clock it measured ages on, or undefined when there is
 * nothing to say (the platform's, and the runner's within 5 minutes of it).
 */
export function ageClockNote({ ages }: { ages: AgeClock }): string | undefined {
  if (ages.by === 'runner')
    return "The platform's answers carry no Date header: ages are measured on the runner's clock."
  if (Math.abs(ages.skewMs) <= CLOCK_SKEW_WARNING_MS) return undefined
  const way = ages.skewMs > 0 ? 'behind' : 'ahead of'
  // To the nearest minute: the Date header has whole seconds, and the answer took time.
  const apart = Math.round(Math.abs(ages.skewMs) / 60_000) * 60_000
  return `The runner's clock is ${formatAge(apart)} ${way} the platform's (by the Date header of its list answer): ages are measured on the platform's clock.`
}

/**
 * Every token the cleanup leaves revoked, newest first: those it revoked, and those
 * someone else revoked meanwhile (the outputs list both; the log tells them apart).
 */
export function allRevoked({ revoked, revokedElsewhere }: CleanupResult): TokenRecord[] {
  return revokedElsewhere.length === 0 ? revoked : newestFirst([...revoked, ...revokedElsewhere])
}

/** How a token revoked by someone else while the cleanup ran is reported. */
export function revokedElsewhereNote(token: TokenRecord): string {
  const at = token.revokedAt ? ` at ${oneLine(token.revokedAt)}` : ''
  const by = token.revokedBy ? ` by ${truncate(oneLine(token.revokedBy), 80)}` : ''
  return `was revoked by someone else meanwhile${at}${by} (another job, or a person): counted as revoked`
}

/** One sentence on what a cleanup did, for the log and the summary. */
export function cleanupOutcome(result: CleanupResult, { dryRun }: { dryRun: boolean }): string {
  if (dryRun)
    return `Dry run: ${countTokens(result.revoked.length)} would be revoked; nothing was revoked.`
  const more = [
    [result.revokedElsewhere.length, 'more had been revoked by someone else meanwhile'],
    [result.notRevoked.length, 'could not be revoked'],
    [result.left.length, `left when ${leftBecause(result)}`],
    [result.unknown.length, unknownBecause(result)],
  ] as const
  const said = more.filter(([count]) => count > 0).map(([count, what]) => `; ${count} ${what}`)
  return `Revoked ${countTokens(result.revoked.length)}${said.join('')}.`
}

/** Why a result, written out in full, still fails the step (some tokens not revoked). */
export function stepFailure(outcome: Outcome): string | undefined {
  if (outcome.operation === 'audit') return auditFailure(outcome.result, outcome.task)
  if (outcome.operation !== 'cleanup') return undefined
  const { result } = outcome
  const unknown =
    result.unknown.length > 0
      ? `${countTokens(result.unknown.length)} ${unknownBecause(result)}; list the tokens to see: ${someOf(result.unknown.map(nameAndId), 'each has a warning above')}`
      : undefined
  const failures = [timeoutFailure(result), unknown, cleanupFailure(result)]
  return failures.filter((failure) => failure !== undefined).join(' ') || undefined
}

/** Of tokens whose revoke was in flight when the step stopped, and that no list could settle. */
export function unknownBecause(result: Pick<CleanupResult, 'stop'>): string {
  return `may have been revoked or not: in flight when ${leftBecause(result)}, and no list could tell`
}

/**
 * When totalTimeout, or a cancel, cut a cleanup short: how far it got, and that a rerun
 * finishes it.
 */
export function timeoutFailure({ left, revoked, stop }: CleanupResult): string | undefined {
  if (left.length === 0) return undefined
  return `${stopped(stop)}: ${countTokens(revoked.length)} revoked, ${left.length} left active; run the cleanup again to revoke them.`
}

/** The step's failure when some tokens were not revoked: each named, with why. */
export function cleanupFailure(result: CleanupResult): string | undefined {
  const { notRevoked } = result
  if (notRevoked.length === 0) return undefined
  const revoked = allRevoked(result)
  const each = notRevoked.map(({ token, reason }) => `${nameAndId(token)}: ${reason}`)
  const shown = someOf(each, 'each has a warning above, and the job summary lists them', ' ', '')
  const were = (n: number) => (n === 1 ? 'was' : 'were')
  return `${notRevoked.length} of ${countTokens(notRevoked.length + revoked.length)} ${were(notRevoked.length)} not revoked (the other ${revoked.length} ${were(revoked.length)}): ${shown}`
}
