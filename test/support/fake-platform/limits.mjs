// The API's throttle at the door: each request's fate by the model the tests set (throttle.mjs), made an answer.
// @ts-check
import { error } from './messages.mjs'

/** @typedef {import('./types.mjs').Answer} Answer */

/**
 * @typedef {object} Gate
 * @property {Answer | undefined} refusal the 429 or 503 to answer, or undefined: let in
 * @property {boolean} atOnce the refusal is answered at once, before the latency
 * @property {() => void} leave to call once the request is answered, whatever its fate
 */

/**
 * The fate of an API request arriving now, by the platform's throttle, on its own clock.
 * @param {import('./platform.mjs').FakePlatform} platform
 * @param {import('./types.mjs').PlatformState} state
 * @returns {Gate}
 */
export function admit(platform, state) {
  // The throttle of this request: a new one set meanwhile does not count it.
  const { throttle } = state
  const now = platform.now()
  const { refusal, ticket } = throttle.arrive(now)
  const leave = () => throttle.leave(ticket)
  if (refusal === undefined) {
    platform.maxInFlight = Math.max(platform.maxInFlight, throttle.inFlight)
    return { refusal: undefined, atOnce: false, leave }
  }
  const answer =
    refusal.status === 429 ? error(429, 'Too many requests') : error(503, 'Service unavailable')
  // Dated when decided, so that a Retry-After date and the Date header tell the same wait.
  return {
    refusal: { ...answer, headers: refusal.headers, dated: now },
    atOnce: refusal.atOnce,
    leave,
  }
}
