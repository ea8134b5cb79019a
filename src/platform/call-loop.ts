// The call loop: one logical request sent until it succeeds, fails for good, or runs out of attempts.
import { type Clock, type Deadline, stopped } from '../shared/time.js'
import { asSentence, type Logger } from '../shared/text.js'
import type { SecretMasker } from '../shared/secrets.js'
import { NOT_JSON, parseJson, requestLine, type Answer } from './api.js'
import { CUT_OFF, HttpTransport, TransportError } from './http.js'
import type { HttpRequest, SendResult, Target, Transport } from './http.js'
import { DeadlineError, RequestError, ThrottledError } from '../shared/errors.js'
import { apiPathHint, backoffDelay, describeFailure, isTransient } from './failures.js'
import { mayHaveTakenEffect, retryAfterDelay, transportHint } from './failures.js'

/** The platform's time at a time of the runner's clock, by its Date headers; undefined without. */
export type PlatformTime = (runnerTime: number) => number | undefined

/** Where API calls get their access token: the client's Session. */
export interface AccessTokens {
  /** A usable access token, authenticating when needed. */
  accessToken(): Promise<string>
  /** Forgets an access token the API rejected (401), so that the next call authenticates again. */
  reject(accessToken: string): Promise<void>
}

export interface CallLoopOptions {
  /** How attempts are sent: node:http by default. */
  transport?: Transport
  /** The most one attempt may take. */
  timeoutMs: number
  /** The whole step's budget: no attempt starts, and no wait begins, past it. */
  deadline: Deadline
  /** Retries of a transient failure, on top of the first attempt. */
  retries: number
  secrets: SecretMasker
  log: Logger
  clock: Clock
  /** Where API calls get their access token: authenticating is itself a call through this loop. */
  accessTokens: AccessTokens
}

export interface CallOptions<T> {
  /** Reads a successful answer; throws a RequestError when it is unreadable. */
  read(answer: Answer): T
  /**
   * After a failure that may have taken effect all the same (its answer lost, or
   * unreadable), finds out whether it did; a result returned ends the call.
   */
  onUncertain?(failure: string): Promise<T | undefined>
  /** Told each time an attempt is written whole: from then on the server may act on it. */
  onWritten?: () => void
  /**
   * Set when a pool sends the request (a cleanup's revokes): a 429 with attempts left is
   * thrown as a ThrottledError, for the pool to send it again when its wait is over,
   * instead of being waited out here while holding the pool's slot. `attemptsUsed`: the
   * attempts the request used before this send, so that the bound holds across sends.
   */
  pooled?: { attemptsUsed: number }
}

const MAYBE = ' It may have taken effect all the same.'

export class CallLoop {
  /** Platform clock minus ours, from the Date header of the last answer; undefined until one came. */
  private platformOffset: number | undefined
  private readonly transport: Transport

  constructor(private readonly options: CallLoopOptions) {
    this.transport = options.transport ?? new HttpTransport()
  }

  /** The platform's time at a time of the runner's clock, by its Date headers; undefined until one came. */
  platformTime(at: number): number | undefined {
    return this.platformOffset === undefined ? undefined : at + this.platformOffset
  }

  /** Closes kept-alive connections so that the process can exit at once. */
  close(): void {
    this.transport.close()
  }

  /**
   * Attempts until success, a failure that is not transient, or `retries` retries,
   * waiting with backoff (or as Retry-After asks) in between. A 401 from the API
   * renews the access token and repeats the call, once.
   */
  async call<T>(target: Target, request: HttpRequest, options: CallOptions<T>): Promise<T> {
    const { retries, deadline, secrets, log, timeoutMs, accessTokens } = this.options
    const attempts = retries + 1
    let renewed = false
    for (let attempt = (options.pooled?.attemptsUsed ?? 0) + 1; ; attempt++) {
      if (deadline.expired()) throw notSent(deadline, request)
      const { outcome, accessToken } = await this.attempt(target, request, options.onWritten)
      const answer = outcome instanceof TransportError ? undefined : outcome
      if (answer?.status === 401 && accessToken !== undefined && !renewed) {
        // The access token expired or was revoked: authenticate again and repeat, once.
        renewed = true
        log.info(`${requestLine(request)} answered 401: authenticating again.`)
        await accessTokens.reject(accessToken)
        attempt--
        continue
      }
      if (answer !== undefined && isSuccess(target, answer.status)) {
        try {
          return options.read(answer)
        } catch (error) {
          // A success that cannot be read was still a success: find out what it did.
          if (!(error instanceof RequestError)) throw error
          const found = await options.onUncertain?.(error.message.replace(/\.$/, ''))
          if (found !== undefined) return found
          throw error
        }
      }
      const transient = isTransient(outcome)
      const retrying = transient && attempt < attempts
      const numbered = attempts > 1 && transient ? `attempt ${attempt} of ${attempts}` : ''
      const scrub = (text: string) => secrets.scrub(text)
      const failure = describeFailure(request, outcome, { renewed, attempt: numbered }, scrub)
      // Waited first: a platform that failed mid-way may still be finishing the change.
      if (retrying) await this.waitToRetry(failure, outcome, attempt, options.pooled !== undefined)
      const found = mayHaveTakenEffect(outcome) ? await options.onUncertain?.(failure) : undefined
      if (found !== undefined) return found
      if (retrying) continue
      // The failure that ends the call, with what to check (a transport error, a 404 from the API).
      const hint =
        outcome instanceof TransportError
          ? transportHint(outcome, target, request.url, timeoutMs)
          : target === 'api' && outcome.status === 404
            ? apiPathHint(request)
            : ''
      throw new RequestError(asSentence(failure) + hint, answer?.status, transient)
    }
  }

  /**
   * Waits before the next attempt: as Retry-After asks, or the backoff. A 429 of a pooled
   * request is handed back to its pool instead (ThrottledError); a wait past the budget,
   * or after a cancel, ends the call (DeadlineError).
   */
  private async waitToRetry(
    failure: string,
    outcome: SendResult<Answer>,
    attempt: number,
    pooled: boolean,
  ) {
    const { clock, deadline, log, retries } = this.options
    const answer = outcome instanceof TransportError ? undefined : outcome
    const told = answer && retryAfterDelay(answer.headers, clock.now())
    const delay = told ?? backoffDelay(attempt, clock.jitter())
    if (answer?.status === 429 && pooled) {
      // Its slot goes to others: the pool sends it again, not before `waitMs`. From its second
      // attempt (turned away again, or after a failure retried here), that is at least the
      // backoff of the retry before (0.25 to 0.5 s on a second): the platform's capacity may
      // have changed, and a told 0 would spend its attempts. Its own backoff (0.5 to 1 s) held a
      // whole cleanup's end for one revoke (up to 3.1x); with no Retry-After it still applies.
      const waitMs = Math.max(delay, attempt > 1 ? backoffDelay(attempt - 1, clock.jitter()) : 0)
      const guessed = told === undefined && attempt === 1
      const throttle = { waitMs, attemptsUsed: attempt, guessed, last: attempt === retries }
      throw new ThrottledError(asSentence(failure), throttle)
    }
    const seconds = `${(delay / 1000).toFixed(1)} s`
    if (delay >= deadline.remaining()) {
      const maybe = mayHaveTakenEffect(outcome)
      const cause = deadline.cause()
      const why =
        cause.by === 'cancel'
          ? `the step was cancelled (${cause.signal}), so it was not tried again`
          : `${deadline.describe()} leaves no time to wait ${seconds} and try again`
      throw new DeadlineError(`${failure}; ${why}.${maybe ? MAYBE : ''}`, answer?.status, maybe)
    }
    log.info(`${failure}; retrying in ${seconds}.`)
    // A cancel ends the wait: nothing is sent after it.
    await clock.sleep(delay, deadline.stopSignal)
  }

  /**
   * Sends one attempt, with the access token for the API, within the time left, and
   * masks what comes back.
   */
  private async attempt(target: Target, request: HttpRequest, onWritten?: () => void) {
    const { clock, secrets, log, deadline, accessTokens } = this.options
    const { transport } = this
    const accessToken = target === 'api' ? await accessTokens.accessToken() : undefined
    // Sent, so a server may echo it in any form: scrubbed piece by piece too.
    if (accessToken !== undefined) secrets.add(accessToken, 'sent')
    const bearer = accessToken === undefined ? {} : { Authorization: `Bearer ${accessToken}` }
    const sent = { ...request, headers: { ...request.headers, ...bearer } }
    // Measured after authenticating, which may have taken time of its own.
    if (deadline.expired()) throw notSent(deadline, request)
    const timeoutMs = Math.min(this.options.timeoutMs, deadline.remaining())
    const started = clock.now()
    let outcome: SendResult<Answer>
    try {
      const response = await transport.send(target, sent, timeoutMs, deadline.cutSignal, onWritten)
      const json = parseJson(response.body)
      // Masked on receipt, whatever the status: an error body can hold a token too.
      secrets.addFrom(json)
      // Only a failure's text is read again, for its detail: a successful list of
      // thousands of tokens is then not held both as text and as records.
      const read = json !== NOT_JSON && isSuccess(target, response.status)
      outcome = { ...response, body: read ? '' : response.body, json }
      // The API's clock dates the tokens; the auth service is another host with its own.
      // The Date header is truncated to the second: the platform's time is half a second later on average.
      const date = Date.parse(response.headers.date ?? '')
      if (target === 'api' && !Number.isNaN(date)) this.platformOffset = date + 500 - clock.now()
    } catch (error) {
      if (!(error instanceof TransportError)) throw error
      outcome = error
    }
    const result = outcome instanceof TransportError ? outcome.code : outcome.status
    log.debug(`${requestLine(request)} -> ${result} in ${clock.now() - started} ms`)
    // Cut short to fit the budget, not by the timeout input: the budget ran out (a timer
    // may fire a millisecond before the clock says so); or cut off by a cancel.
    const shortened = timeoutMs < this.options.timeoutMs
    if (
      outcome instanceof TransportError &&
      ((outcome.code === 'ETIMEDOUT' && shortened) || outcome.code === CUT_OFF)
    ) {
      const { requestSent } = outcome
      const waited = `while ${requestLine(request)} waited for an answer.${requestSent ? MAYBE : ''}`
      throw new DeadlineError(`${stopped(deadline.cause())} ${waited}`, undefined, requestSent)
    }
    return { outcome, accessToken }
  }
}

/** The token endpoint answers exactly 200 on success (section 5); the API any 2xx. */
export function isSuccess(target: Target, status: number): boolean {
  return target === 'auth' ? status === 200 : status >= 200 && status <= 299
}

/** The budget ran out, or the step was cancelled, before `request` was sent. */
function notSent(deadline: Deadline, request: HttpRequest): DeadlineError {
  return new DeadlineError(`${stopped(deadline.cause())} before ${requestLine(request)} was sent.`)
}
