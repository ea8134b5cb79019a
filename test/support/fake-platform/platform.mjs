// The FakePlatform class: its settings, its two servers, and the methods the tests call.
// @ts-check
import { randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import { createServer as createTlsServer } from 'node:https'
import { close, listen } from './http.mjs'
import { newRecord, revokeRecord, timestamp } from './records.mjs'
import { requestHandler } from './server.mjs'
import { Throttle } from './throttle.mjs'

/** @typedef {import('./types.mjs').TokenRecord} TokenRecord */
/** @typedef {import('./types.mjs').RecordedRequest} RecordedRequest */
/** @typedef {import('./types.mjs').Fault} Fault */
/** @typedef {import('./types.mjs').RecordAnswer} RecordAnswer */
/** @typedef {import('./types.mjs').SeedSpec} SeedSpec */
/** @typedef {import('./types.mjs').FakePlatformOptions} FakePlatformOptions */
/** @typedef {import('./throttle.mjs').ThrottleSpec} ThrottleSpec */

export const AUTH_PATH = '/idp/identity/resources/auth/v2/api-token'

export class FakePlatform {
  /** @type {Map<string, TokenRecord>} the stored records by id, in creation order */
  tokens = new Map()
  /** @type {RecordedRequest[]} every request, in arrival order */
  requests = []
  /**
   * @type {Set<string>} secrets handed out, for leak checks: access and refresh tokens,
   * and any tokenValue or access token that a rewrite put in an answer
   */
  issuedSecrets = new Set()
  /** @type {unknown[]} errors thrown while answering (a rewrite that threw): answered 500 */
  handlerErrors = []
  /** @type {import('./types.mjs').PlatformState} what the servers' handler shares */
  #state = {
    accessTokens: new Map(),
    faults: [],
    madeAt: new Map(),
    throttle: new Throttle({}, 0),
  }
  /** @type {import('node:http').Server} */
  #authServer
  /** @type {import('node:http').Server} */
  #apiServer
  /** @type {() => number} */
  now

  /** @param {FakePlatformOptions} [options] */
  constructor(options = {}) {
    this.clientId = options.clientId ?? 'ci-deployer'
    this.clientSecret = options.clientSecret ?? `cs_${randomBytes(18).toString('base64url')}`
    this.apiPrefix = options.apiPrefix ?? ''
    this.authPath = options.authPath ?? AUTH_PATH
    /**
     * How far the platform's clock is ahead of the runner's (negative: behind). It dates
     * records and the Date header of every answer, as a platform's own clock would.
     */
    this.clockOffsetMs = 0
    this.now = options.now ?? (() => Date.now() + this.clockOffsetMs)
    /** Every answer is delayed by this much (the benchmark's network latency). */
    this.latencyMs = options.latencyMs ?? 0
    /** Seconds an access token lives: 86400, as in every sample of the spec. */
    this.accessTokenLifetime = 86400
    /**
     * `admin` may do anything; `viewer` is refused (403) every change, like a user
     * with a restricted role.
     * @type {'admin' | 'viewer'}
     */
    this.role = 'admin'
    /** The most API requests counted in flight at once (by the throttle's count). */
    this.maxInFlight = 0
    /**
     * Rewrites each record in the answers that carry records (create, list, revoke). It
     * gets a copy of the stored record and which answer it is for, and returns what is
     * sent in its place: the copy changed (any field: name, id, createdAt, projectId,
     * state...), another object, or anything else (`null`, a string, a number...). The
     * stored records stay as they are, so a revoke by the real id still works; change
     * `tokens` to change them. A tokenValue it sends joins `issuedSecrets`.
     * @type {((record: TokenRecord, answer: RecordAnswer) => unknown) | undefined}
     */
    this.rewriteRecord = undefined
    /** The list answer holds every record twice: the whole list, then again. */
    this.duplicateRecords = false
    /**
     * A list that lags behind a create, as an eventually consistent store would: tokens
     * created in the last `listLagMs` are not in the list answer yet.
     */
    this.listLagMs = 0
    /**
     * Rewrites every answer of the auth endpoint that the platform computes (not
     * injected faults): it gets the JSON payload (on success `access_token`,
     * `refresh_token`, `expires_in`, `expires`; else `{ error }`), the status and the
     * request, and returns the payload to send. A new `access_token` (or `accessToken`)
     * of a 200 answer is then valid on the API, and it and any `refresh_token` join
     * `issuedSecrets`.
     * @type {((payload: unknown, context: { status: number, request: RecordedRequest }) => unknown) | undefined}
     */
    this.rewriteAuth = undefined
    /** `false` leaves the Date header out of every answer (Node adds one by default). */
    this.sendDate = true
    /**
     * How a revoke of a token revoked already is refused: platforms differ (409 Conflict,
     * 400 Bad Request, 404 Not Found as if it were gone); the spec does not say.
     * @type {409 | 400 | 404}
     */
    this.alreadyRevokedStatus = 409
    this.authUrl = ''
    this.baseUrl = ''
    this.#ports = { auth: options.authPort ?? 0, api: options.apiPort ?? 0 }
    const { tls } = options
    const auth = requestHandler(this, this.#state, 'auth')
    const api = requestHandler(this, this.#state, 'api')
    this.#authServer = tls ? createTlsServer(tls, auth) : createServer(auth)
    this.#apiServer = tls ? createTlsServer(tls, api) : createServer(api)
    /**
     * Connections each server accepted (with TLS, each one a handshake, whether it
     * succeeds or not): how often a client tried again.
     */
    this.connections = { auth: 0, api: 0 }
    this.#authServer.on('connection', () => this.connections.auth++)
    this.#apiServer.on('connection', () => this.connections.api++)
    this.#origin = `${tls ? 'https' : 'http'}://${options.host ?? '127.0.0.1'}`
  }

  /** @type {ThrottleSpec | undefined} */
  #throttleSpec

  /**
   * How the API throttles (throttle.mjs): undefined lets every request in. Setting it starts
   * a new throttle at that moment, on now(): its counts, bucket and window, and the times of
   * `shared` and `outages`, start from there. A request refused `at once` is answered before
   * the latency, one refused `after latency` (the default) or in an outage after it; one
   * counted in flight (`rejectedInFlight`) leaves when answered. Retry-After is as the model
   * writes it, and a refusal's Date header is the time it was decided, so that a Retry-After
   * date read against it tells the wait.
   */
  get throttle() {
    return this.#throttleSpec
  }

  set throttle(spec) {
    this.#throttleSpec = spec
    this.#state.throttle = new Throttle(spec ?? {}, this.now())
  }

  /** The requests the throttle set last turned away: 429 (over the limit), 503 (outages). */
  get refused() {
    return { ...this.#state.throttle.refused }
  }

  /** How many 429s the throttle set last answered. */
  get throttled() {
    return this.#state.throttle.refused[429]
  }

  /** @type {{ auth: number, api: number }} */
  #ports
  /** @type {string} scheme and host of the URLs */
  #origin

  async start() {
    const auth = await listen(this.#authServer, this.#ports.auth)
    const api = await listen(this.#apiServer, this.#ports.api)
    this.authUrl = `${this.#origin}:${auth}`
    this.baseUrl = `${this.#origin}:${api}${this.apiPrefix}`
    return this
  }

  async close() {
    for (const server of [this.#authServer, this.#apiServer]) server.closeAllConnections()
    await Promise.all([close(this.#authServer), close(this.#apiServer)])
  }

  /** The action's inputs that point at this platform with valid credentials. */
  connectionInputs() {
    return {
      clientId: this.clientId,
      clientSecret: this.clientSecret,
      baseUrl: this.baseUrl,
      authUrl: this.authUrl,
    }
  }

  /**
   * Adds a token as if created earlier (see SeedSpec), and returns a copy of it.
   * @param {SeedSpec} spec
   */
  seed(spec) {
    const createdAt = spec.createdAt ?? timestamp(this.now() - (spec.ageMs ?? 0))
    const record = newRecord(this, this.#state.madeAt, spec.name, createdAt, spec)
    if (spec.state === 'revoked') revokeRecord(this, record)
    else if (spec.state !== undefined) record.state = spec.state
    return { ...record }
  }

  /** Every secret this platform handed out or holds: none may appear in clear anywhere. */
  secrets() {
    const values = [...this.tokens.values()].map((token) => token.tokenValue ?? '')
    return [this.clientSecret, ...this.issuedSecrets, ...values].filter((value) => value !== '')
  }

  /**
   * Adds a fault (see Fault). Faults are matched in the order they were added.
   * @param {Fault} fault
   */
  fail(fault) {
    this.#state.faults.push({ times: 1, ...fault })
    return this
  }

  /** How many times the faults still have to hit, in all. */
  faultsLeft() {
    return this.#state.faults.reduce((sum, fault) => sum + fault.times, 0)
  }

  /** The requests of one server, or all, as `METHOD path` lines, the paths raw as sent. */
  requestLines(server = /** @type {'auth' | 'api' | undefined} */ (undefined)) {
    return this.requests
      .filter((request) => server === undefined || request.server === server)
      .map((request) => `${request.method} ${request.path}`)
  }
}

/** @param {FakePlatformOptions} [options] */
export async function startFakePlatform(options) {
  return new FakePlatform(options).start()
}
