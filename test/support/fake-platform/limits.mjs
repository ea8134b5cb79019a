// The API's limits: requests in flight and a rate limit's token bucket, over them a 429.
// @ts-check
import { error } from './messages.mjs'

/** @typedef {import('./types.mjs').Answer} Answer */
/** @typedef {import('./types.mjs').RetryAfterStyle} RetryAfterStyle */

/**
 * A 429 answer when an API request arriving now is over a limit, else undefined (and the
 * request takes a token from the bucket).
 * @param {import('./platform.mjs').FakePlatform} platform
 * @param {import('./types.mjs').PlatformState} state
 * @returns {Answer | undefined}
 */
export function overLimit(platform, state) {
  const inFlight = platform.inFlightLimit
  if (inFlight !== undefined && state.inFlight >= inFlight.max) {
    platform.throttled++
    return tooMany(1000, inFlight.retryAfter)
  }
  const rate = platform.rateLimit
  if (rate === undefined) return undefined
  const now = Date.now()
  const bucket = state.bucket ?? { tokens: rate.burst, at: now }
  bucket.tokens = Math.min(rate.burst, bucket.tokens + ((now - bucket.at) * rate.perSecond) / 1000)
  bucket.at = now
  state.bucket = bucket
  if (bucket.tokens >= 1) {
    bucket.tokens -= 1
    return undefined
  }
  platform.throttled++
  return tooMany(((1 - bucket.tokens) * 1000) / rate.perSecond, rate.retryAfter)
}

/**
 * A 429 answer, with a Retry-After for a wait of `waitMs` in the given style.
 * @param {number} waitMs
 * @param {RetryAfterStyle} [style]
 * @returns {Answer}
 */
function tooMany(waitMs, style = 'seconds') {
  const answer = error(429, 'Too many requests')
  if (style === 'none') return answer
  const seconds = style === '0' ? '0' : String(Math.max(1, Math.ceil(waitMs / 1000)))
  return { ...answer, headers: { 'Retry-After': seconds } }
}
