// After a create whose answer was lost: which token, if any, it made, told from the list and the two clocks.
import { createdTime, newestFirst, type TokenRecord } from '../shared/records.js'
import { truncate } from '../shared/text.js'

/**
 * The platform's time at a time of the runner's clock, read from the Date headers of its
 * answers; undefined when none came (a platform or a proxy may leave the header out).
 */
export type PlatformTime = (runnerTime: number) => number | undefined

// With a Date header: its whole seconds and an answer's time on the way.
export const KNOWN_CLOCK_MARGIN_MS = 2_000
// Without one: how far apart the two clocks may be. Tokens created this long before the
// create, by the runner's clock, may still be its own if the platform's clock is behind.
export const UNKNOWN_CLOCK_MARGIN_MS = 60_000

/** What the list says about a create whose answer was lost. */
export type CreatedToken =
  /** No active token of that name was created since the create was sent. */
  | { found: 'none' }
  /** Exactly one was: the create's own. */
  | { found: 'one'; token: TokenRecord }
  /** Several may have been, newest first: which one is the create's cannot be told. */
  | { found: 'several'; tokens: TokenRecord[] }
  /**
   * One may have been, but when cannot be told for sure: made shortly before the create
   * by the runner's clock with no Date header to compare the clocks with, or with a
   * createdAt that cannot be read. It may be the create's, or another's: adopting (or
   * revoking) another's would cut its mediator off. `why` says which, for messages.
   */
  | { found: 'unsure'; token: TokenRecord; why: string }

/**
 * Finds the token a create sent at `sentAt` (the runner's clock) made: the active
 * tokens with exactly this name created since then, by the platform's clock. Without
 * that clock, tokens up to a minute older are looked at too, and one that is older than
 * the create by the runner's clock is never taken for the create's own. A token of that
 * name whose createdAt cannot be read may be the create's too: it is a candidate, never
 * taken for sure.
 */
export function findCreated(
  tokens: readonly TokenRecord[],
  name: string,
  sentAt: number,
  platformTime: PlatformTime,
): CreatedToken {
  const platformSentAt = platformTime(sentAt)
  const since =
    platformSentAt === undefined
      ? sentAt - UNKNOWN_CLOCK_MARGIN_MS
      : platformSentAt - KNOWN_CLOCK_MARGIN_MS
  const candidates = newestFirst(
    tokens.filter((token) => {
      if (token.name !== name || token.state !== 'active') return false
      const created = createdTime(token)
      return created === undefined || created >= since
    }),
  )
  const [only] = candidates
  if (only === undefined) return { found: 'none' }
  if (candidates.length > 1) return { found: 'several', tokens: candidates }
  const created = createdTime(only)
  if (created === undefined) {
    const why = `its createdAt (${JSON.stringify(truncate(only.createdAt ?? '', 40))}) cannot be read, so whether it was made by this step or before it cannot be told`
    return { found: 'unsure', token: only, why }
  }
  if (platformSentAt === undefined && created < sentAt - KNOWN_CLOCK_MARGIN_MS) {
    const seconds = Math.round((sentAt - created) / 1000)
    const why = `it was created ${seconds} s before the create was sent by the runner's clock, and the platform's answers carry no Date header to compare the two clocks with, so it may be another's`
    return { found: 'unsure', token: only, why }
  }
  return { found: 'one', token: only }
}
