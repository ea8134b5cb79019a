// After a create whose answer was lost: which token, if any, it made, told from the list and the two clocks.
import { createdTime, newestFirst, type TokenRecord } from '../records.js'

/**
 * The platform's time at a time of the runner's clock, read from the Date headers of its
 * answers; undefined when none came (a platform or a proxy may leave the header out).
 */
export type PlatformTime = (runnerTime: number) => number | undefined

// With a Date header: its whole seconds and an answer's time on the way.
const KNOWN_CLOCK_MARGIN_MS = 2_000
// Without one: how far apart the two clocks may be. Tokens created this long before the
// create, by the runner's clock, may still be its own if the platform's clock is behind.
export const UNKNOWN_CLOCK_MARGIN_MS = 60_000

/** What the list says about a create whose answer was lost. */
export type CreatedToken =
  /** No active token of that name was created since the create was sent. */
  | { found: 'none' }
  /** Exactly one was: the create's own. */
  | { found: 'one'; token: TokenRecord }
  /** Several were, newest first: which one is the create's cannot be told. */
  | { found: 'several'; tokens: TokenRecord[] }
  /**
   * One was, shortly before the create by the runner's clock, and the platform sent no
   * Date header to compare the clocks with: it may be the create's, or another's made
   * just before. Adopting (or revoking) another's would cut its mediator off.
   */
  | { found: 'unsure'; token: TokenRecord }

/**
 * Finds the token a create sent at `sentAt` (the runner's clock) made: the active
 * tokens with exactly this name created since then, by the platform's clock. Without
 * that clock, tokens up to a minute older are looked at too, and one that is older than
 * the create by the runner's clock is never taken for the create's own.
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
  const created = newestFirst(
    tokens.filter(
      (token) =>
        token.name === name &&
        token.state === 'active' &&
        (createdTime(token) ?? -Infinity) >= since,
    ),
  )
  const [only] = created
  if (only === undefined) return { found: 'none' }
  if (created.length > 1) return { found: 'several', tokens: created }
  const beforeSent = (createdTime(only) ?? -Infinity) < sentAt - KNOWN_CLOCK_MARGIN_MS
  if (platformSentAt === undefined && beforeSent) return { found: 'unsure', token: only }
  return { found: 'one', token: only }
}

/** Why an `unsure` token was not taken for the create's own, for messages. */
export function unsureReason(token: TokenRecord, sentAt: number): string {
  const seconds = Math.round((sentAt - (createdTime(token) ?? sentAt)) / 1000)
  return `it was created ${seconds} s before the create was sent by the runner's clock, and the platform's answers carry no Date header to compare the two clocks with, so it may be another's`
}
