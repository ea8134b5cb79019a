// When to try again and how long to wait: transient failures, backoff with jitter, Retry-After.
import type { IncomingHttpHeaders } from 'node:http'
import { TransportError, type SendResult } from './http.js'

/** How long to wait between attempts. */
export interface Backoff {
  /** The first retry waits between half of this and this. */
  baseDelayMs: number
  /** No backoff step waits longer than this. */
  maxDelayMs: number
  /** A Retry-After longer than this is cut to this. */
  maxRetryAfterMs: number
}

export const DEFAULT_BACKOFF: Backoff = {
  baseDelayMs: 500,
  maxDelayMs: 8_000,
  maxRetryAfterMs: 60_000,
}

/** Statuses that say "not now" rather than "no". */
const TRANSIENT_STATUSES = new Set([408, 429, 500, 502, 503, 504])

/** Network failures worth another try: resets, refusals, DNS failures, timeouts. */
const TRANSIENT_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
])

export function isTransient(outcome: SendResult): boolean {
  return outcome instanceof TransportError
    ? TRANSIENT_CODES.has(outcome.code)
    : TRANSIENT_STATUSES.has(outcome.status)
}

/**
 * True when a failed request may have been carried out all the same: it was written
 * whole and no answer said what became of it. Its answer was lost (a reset, a timeout),
 * or the server failed without saying whether it acted (any 5xx: a gateway's 503 may come
 * after the platform behind it acted), or gave up on it (408). A refused connection never
 * sent it; a 4xx other than 408 says no.
 */
export function mayHaveTakenEffect(outcome: SendResult): boolean {
  if (outcome instanceof TransportError) return outcome.requestSent
  return outcome.status >= 500 || outcome.status === 408
}

/**
 * The wait before retry number `retry` (1 for the first): exponential, with equal
 * jitter so that many clients do not retry in step: between half and all of
 * base × 2^(retry-1), capped.
 */
export function backoffDelay(
  retry: number,
  jitter: number,
  backoff: Backoff = DEFAULT_BACKOFF,
): number {
  const ceiling = Math.min(backoff.maxDelayMs, backoff.baseDelayMs * 2 ** (retry - 1))
  return Math.round(ceiling / 2 + (jitter * ceiling) / 2)
}

/**
 * The wait a Retry-After header asks for, in milliseconds: delta-seconds, or an
 * HTTP-date read against the answer's own Date header (so that a skewed runner
 * clock does not matter) or else against `now`. Capped; undefined when absent or
 * unreadable.
 */
export function retryAfterDelay(
  headers: IncomingHttpHeaders,
  now: number,
  backoff: Backoff = DEFAULT_BACKOFF,
): number | undefined {
  const value = headers['retry-after']?.trim()
  if (!value) return undefined
  let delay: number
  if (/^\d+$/.test(value)) {
    delay = Number(value) * 1000
  } else {
    // An HTTP-date names its day and month ("Sun, 22 Nov 2026 09:00:05 GMT").
    const at = /[a-z]/i.test(value) ? Date.parse(value) : NaN
    if (Number.isNaN(at)) return undefined
    const serverNow = headers.date === undefined ? NaN : Date.parse(headers.date)
    delay = Math.max(0, at - (Number.isNaN(serverNow) ? now : serverNow))
  }
  return Math.min(delay, backoff.maxRetryAfterMs)
}
