// The action's expected failures: their messages are what the workflow author reads.
import { asSentence } from './text.js'

/**
 * An expected failure (bad input, a platform that refused, a network that failed).
 * Its message is exactly what the workflow author reads, so it must say what went
 * wrong and what to do, and must never hold a secret. Anything else thrown is a bug.
 */
export class ActionError extends Error {}

/** A bad input, found before any request is sent. The message starts with the input's name. */
export class InputError extends ActionError {
  constructor(
    readonly input: string,
    problem: string,
  ) {
    super(`Input '${input}' ${problem}`)
  }
}

/**
 * Runs `write`, which writes `file`: one of the runner's (GITHUB_OUTPUT, GITHUB_ENV,
 * GITHUB_STATE) or of the action's own (the token file, tokensFile). When it cannot (a full
 * disk, ENOSPC, or a file gone), what it throws becomes an ActionError naming the file.
 */
export function toFile<T>(file: string, write: () => T): T {
  try {
    return write()
  } catch (error) {
    throw new ActionError(`could not write ${file}: ${asSentence(messageOf(error))}`)
  }
}

/** For failures that may come from missing or wrong credentials. */
export const FORK_HINT = 'Secrets are not passed to workflows triggered from forks.'

/**
 * What an error says: its message, or the thrown value as text. Read as a field, not by
 * class: an error from another realm (a test's fs) is not an instance of this Error.
 */
export function messageOf(error: unknown): string {
  const { message } = (error ?? {}) as { message?: unknown }
  return typeof message === 'string' ? message : String(error)
}

/** A request that failed: refused, unanswered, or answered with something unreadable. */
export class RequestError extends ActionError {
  constructor(
    message: string,
    /** The HTTP status of the last answer, or undefined when none came. */
    readonly status?: number,
    /**
     * The failure may pass with time (failures.ts, isTransient): a 503, a reset. Not a refusal,
     * a certificate, or an answer that cannot be read, which no wait changes.
     */
    readonly transient = false,
  ) {
    super(message)
  }
}

/** The access token could not be obtained: no API call was made. */
export class AuthenticationError extends RequestError {}

/**
 * The step's totalTimeout ran out, or the step was cancelled: the request was not sent,
 * not sent again, or cut off. With
 * `mayHaveTakenEffect`, an attempt had been sent and whether it took effect is unknown:
 * its answer did not come in the time left, or was a failure that does not say (a 502).
 */
export class DeadlineError extends RequestError {
  constructor(
    message: string,
    status?: number,
    readonly mayHaveTakenEffect = false,
  ) {
    super(message, status)
  }
}

/**
 * A revoke whose outcome only the token's record can tell: the platform refused
 * it (a 4xx other than 401, 408 and 429: someone else may have revoked it), or answered
 * with a success that does not show it revoked. A list fetched after it settles it
 * (client.ts, settleRefusals). With `mayHaveRevoked`, an earlier attempt may have revoked
 * the token: then a revoked record is this call's doing.
 */
export class UnsettledRevokeError extends RequestError {
  constructor(
    readonly refusal: RequestError,
    readonly mayHaveRevoked: boolean,
  ) {
    super(refusal.message, refusal.status)
  }
}

/**
 * A 429 to a request a pool sends (a cleanup's revoke), with attempts left: not waited out
 * in place, but handed back, so that the pool gives its slot to others meanwhile and sends
 * it again after `waitMs` (its Retry-After, else its backoff: `guessed` on a first 429; from
 * a second attempt, at least the backoff of the retry before).
 * `attemptsUsed` counts this one, `last` says the next is the last; the message says what the
 * 429 said, its Retry-After included.
 */
export class ThrottledError extends RequestError {
  readonly throttle: {
    waitMs: number
    attemptsUsed: number
    guessed?: boolean
    last?: boolean
    why: string
  }

  constructor(message: string, throttle: Omit<ThrottledError['throttle'], 'why'>) {
    super(message, 429)
    this.throttle = { ...throttle, why: message }
  }
}

/** A revoke of a token id the project does not have. */
export class UnknownTokenError extends RequestError {}

/** A 4xx that says no, rather than "not now" (408, 429). */
export function isRefusal(status: number | undefined): boolean {
  return status !== undefined && status >= 400 && status <= 499 && status !== 408 && status !== 429
}
