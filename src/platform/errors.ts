// The failures of the platform client: a request that failed, and its two special cases.
import { ActionError } from '../errors.js'

/** A request that failed: refused, unanswered, or answered with something unreadable. */
export class RequestError extends ActionError {
  override name = 'RequestError'

  constructor(
    message: string,
    /** The HTTP status of the last answer, or undefined when none came. */
    readonly status?: number,
  ) {
    super(message)
  }
}

/** The access token could not be obtained: no API call was made. */
export class AuthenticationError extends RequestError {
  override name = 'AuthenticationError'
}

/**
 * The step's totalTimeout ran out: the request was not sent, or not sent again. With
 * `mayHaveTakenEffect`, an attempt had been sent and whether it took effect is unknown:
 * its answer did not come in the time left, or was a failure that does not say (a 502).
 */
export class DeadlineError extends RequestError {
  override name = 'DeadlineError'

  constructor(
    message: string,
    status?: number,
    readonly mayHaveTakenEffect = false,
  ) {
    super(message, status)
  }
}

/** A revoke of a token id the project does not have. */
export class UnknownTokenError extends RequestError {
  override name = 'UnknownTokenError'
}

/** A 4xx that says no, rather than "not now" (408, 429). */
export function isRefusal(status: number | undefined): boolean {
  return status !== undefined && status >= 400 && status <= 499 && status !== 408 && status !== 429
}
