// Whether a result, written out in full, still fails the step: a cleanup that left tokens active.
import type { CleanupResult } from '../operations/cleanup.js'
import type { Done } from '../operations/index.js'
import { stopped } from '../shared/time.js'
import { nameAndId } from '../shared/records.js'
import { countTokens } from '../shared/text.js'
import { allRevoked } from './wording.js'

/** Why a result, written out in full, still fails the step (some tokens not revoked). */
export function stepFailure(done: Done): string | undefined {
  if (done.operation !== 'cleanup') return undefined
  const failures = [timeoutFailure(done.result), cleanupFailure(done.result)]
  const text = failures.filter((failure) => failure !== undefined).join(' ')
  return text === '' ? undefined : text
}

/**
 * When totalTimeout, or a cancel, cut a cleanup short: how far it got, and that a rerun
 * finishes it.
 */
export function timeoutFailure(result: CleanupResult): string | undefined {
  const { left, revoked, stop } = result
  if (left.length === 0) return undefined
  return `${stopped(stop)}: ${countTokens(revoked.length)} revoked, ${left.length} left active; run the cleanup again to revoke them.`
}

/** The step's failure when some tokens were not revoked: each named, with why. */
export function cleanupFailure(result: CleanupResult): string | undefined {
  const { notRevoked } = result
  if (notRevoked.length === 0) return undefined
  const revoked = allRevoked(result)
  const shown = notRevoked.slice(0, 5).map(({ token, reason }) => `${nameAndId(token)}: ${reason}`)
  const more =
    notRevoked.length > shown.length
      ? ` And ${notRevoked.length - shown.length} more: each has a warning above, and the job summary lists them.`
      : ''
  const total = notRevoked.length + revoked.length
  const were = (n: number) => (n === 1 ? 'was' : 'were')
  return `${notRevoked.length} of ${countTokens(total)} ${were(notRevoked.length)} not revoked (the other ${revoked.length} ${were(revoked.length)}): ${shown.join(' ')}${more}`
}
