// @ts-check
/**
 * A fake of the platform as real HTTP servers on 127.0.0.1: the auth endpoint and the
 * REST API on two ports, records in memory. It is as strict as the spec
 * (docs/PLATFORM-API.md): it checks Content-Type, the Bearer token, a
 * JSON `name`, and that a revoke carries the token id in path and query alike.
 *
 * It can also be hostile on request, so that the end-to-end tests can show what the
 * action does with a platform that answers strangely:
 * - `rewriteRecord` rewrites each record in the answers that carry them (create, list,
 *   revoke), `duplicateRecords` sends the list twice over, `seed` stores any id,
 *   project id, state or date as given;
 * - `rewriteAuth` rewrites the answers of the auth endpoint (an access token holding
 *   CR/LF, NUL or `€`);
 * - faults (`fail`) add a reason phrase (`statusText`), any header values (`headers`),
 *   a deeply nested JSON body (`nest`) or an error body that echoes the request (`echo`);
 * - `sendDate = false` leaves out the Date header; `clockOffsetMs` sets the platform's
 *   clock (createdAt, revokedAt, the Date header) apart from the runner's;
 * - `alreadyRevoked` says how a revoke of a revoked token is refused (409 by default).
 * A reason phrase, header or status that Node refuses to send is written to the socket
 * by hand, as a hostile server would.
 *
 * Used by the end-to-end tests and `npm run demo`; `node test/support/fake-platform.mjs`
 * starts one by hand and prints its addresses.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import { createServer, STATUS_CODES, validateHeaderName, validateHeaderValue } from 'node:http'
import { createServer as createTlsServer } from 'node:https'
import { pathToFileURL } from 'node:url'

export const AUTH_PATH = '/idp/identity/resources/auth/v2/api-token'
export const PROJECT_ID = '6f1c2a8e-3b4d-4e5f-9a0b-1c2d3e4f5a6b'
export const USER_ID = '0b8d9c7a-6e5f-4a3b-8c2d-1e0f9a8b7c6d'
export const USER_EMAIL = 'deploy-bot@example.com'

/**
 * @typedef {object} TokenRecord
 * @property {string} id
 * @property {string} name
 * @property {string} [tokenValue]
 * @property {string} mediatorId
 * @property {string} projectId
 * @property {string} createdBy
 * @property {string} createdByEmail
 * @property {string} state
 * @property {string} createdAt
 * @property {string} [revokedAt]
 * @property {string} [revokedBy]
 */

/**
 * @typedef {object} RecordedRequest
 * @property {'auth' | 'api'} server
 * @property {string} method
 * @property {string} path the path with its query string, exactly as sent (not normalised)
 * @property {import('node:http').IncomingHttpHeaders} headers
 * @property {string} body
 * @property {number} at arrival time (Date.now(), not the fake clock)
 */

/**
 * Header values of an answer: any text, also what Node refuses to send (line breaks,
 * NUL, characters above U+00FF), which then goes out raw, UTF-8 encoded.
 * @typedef {Record<string, string | string[]>} AnswerHeaders
 */

/**
 * What the request is echoed with: `'body'` the raw request body (the auth service then
 * echoes the client secret), `'path'` the path and query as sent, `'headers'` the request
 * headers as JSON (Authorization included). These come back inside a JSON error
 * (`{"error": "Cannot process this request: ..."}`). A function computes the raw body
 * itself, sent as text.
 * @typedef {'body' | 'path' | 'headers' | ((request: RecordedRequest) => string)} Echo
 */

/**
 * A fault the platform shows to matching requests, `times` times (default once).
 * With `status` (or `drop`) and without `commit` the request is not carried out; with
 * `commit`, the change is made and then the answer is lost or replaced, as when a proxy
 * fails after the platform acted. Without `status` the request is carried out and its
 * answer keeps its status; `statusText`, `headers` and a body (`echo`, `nest`, `json`,
 * `body`, in this order of precedence) then change that answer.
 * @typedef {object} Fault
 * @property {'auth' | 'api'} [server] which server (both when absent)
 * @property {string} [method]
 * @property {string | RegExp} [path] the path as sent, without its query (and without apiPrefix)
 * @property {number} [times] how many requests it hits; Infinity for all
 * @property {boolean} [commit] carry the request out first
 * @property {number} [commitAfterMs] carry the request out this long after it was answered
 *   (or its answer lost): a platform still creating when the client gave up
 * @property {number} [delayMs] answer this much later
 * @property {'reset' | 'hang'} [drop] reset the connection, or never answer
 * @property {number} [status] answer with this status instead (default body: a JSON error)
 * @property {string} [statusText] with this reason phrase (any text, e.g. a secret or `##[error]x`)
 * @property {AnswerHeaders} [headers] with these headers, over the answer's own
 * @property {string} [body] this raw body, as text/plain unless `headers` say otherwise
 * @property {unknown} [json] or this JSON body
 * @property {number} [nest] or a JSON body of this many nested objects: `{"a":{"a":...{}}}`
 * @property {Echo} [echo] or an error body that echoes the request
 */

/**
 * An answer before it is sent: a JSON payload, or a raw `body`.
 * @typedef {object} Answer
 * @property {number} status
 * @property {unknown} [json] the JSON payload (undefined: an empty body)
 * @property {string} [body] a raw body instead, of type `type`
 * @property {string} [type] the Content-Type of a raw body (default text/plain)
 * @property {string} [statusText]
 * @property {AnswerHeaders} [headers]
 */

/** @typedef {'create' | 'list' | 'revoke'} RecordAnswer which answer carries a record */

/**
 * A token seeded as if created earlier. Every field but `name` is optional and stored
 * as given, however hostile: an `id` of `..` or `.`, another project's id, a date that
 * is not one.
 * @typedef {object} SeedSpec
 * @property {string} name
 * @property {number} [ageMs] created this long before now() (whole seconds, as the platform writes)
 * @property {string} [createdAt] or exactly this createdAt, kept as given
 * @property {string} [state] `active` (the default); `revoked`: revoked now, with revokedAt
 *   and revokedBy and without tokenValue; any other text is stored as it is
 * @property {string} [id] a random UUID by default
 * @property {string} [projectId] PROJECT_ID by default
 * @property {string} [mediatorId] a random UUID by default
 */

/**
 * @typedef {object} FakePlatformOptions
 * @property {string} [clientId]
 * @property {string} [clientSecret]
 * @property {string} [apiPrefix] a path prefix in front of /api (baseUrl may carry one)
 * @property {string} [authPath] where the token endpoint is served
 * @property {number} [authPort] 0 (the default) picks a free port
 * @property {number} [apiPort]
 * @property {{ key: string | Buffer, cert: string | Buffer }} [tls] serve HTTPS with this key and certificate
 * @property {string} [host] the host name in authUrl and baseUrl (default 127.0.0.1); it must resolve to it
 * @property {() => number} [now] the clock, in milliseconds, for createdAt, revokedAt and expiry
 * @property {number} [latencyMs] delay every answer by this much, like a platform across a network
 */

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
  /** @type {Map<string, number>} access token -> expiry time */
  #accessTokens = new Map()
  /** @type {(Fault & { times: number })[]} */
  #faults = []
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
    /**
     * The API's limits, each off when undefined. `inFlightLimit`: at most `max` requests
     * being answered at once. `rateLimit`: a token bucket, `perSecond` requests a second on
     * average with bursts of up to `burst`. A request over a limit is answered 429 (after
     * the latency, as over a network), with a Retry-After as `retryAfter` says: `seconds`
     * (the default: the wait rounded up to whole seconds, as servers send it; 1 for a
     * request over the in-flight limit, whose wait no one knows), `0`, or `none`.
     * @type {{ max: number, retryAfter?: RetryAfterStyle } | undefined}
     */
    this.inFlightLimit = undefined
    /** @type {{ perSecond: number, burst: number, retryAfter?: RetryAfterStyle } | undefined} */
    this.rateLimit = undefined
    /** How many requests the limits turned away. */
    this.throttled = 0
    /** The most API requests that were being answered at once. */
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
    /** @param {'auth' | 'api'} server */
    const handler =
      (server) =>
      (
        /** @type {import('node:http').IncomingMessage} */ req,
        /** @type {import('node:http').ServerResponse} */ res,
      ) =>
        void this.#receive(server, req, res).catch((/** @type {unknown} */ error) => {
          this.handlerErrors.push(error)
          if (!res.headersSent && !res.destroyed) {
            this.#send(req, res, {
              status: 500,
              json: { error: `fake platform: ${String(error)}` },
            })
          }
        })
    const { tls } = options
    this.#authServer = tls ? createTlsServer(tls, handler('auth')) : createServer(handler('auth'))
    this.#apiServer = tls ? createTlsServer(tls, handler('api')) : createServer(handler('api'))
    this.#origin = `${tls ? 'https' : 'http'}://${options.host ?? '127.0.0.1'}`
  }

  /** @type {{ auth: number, api: number }} */
  #ports
  /** When each token was made, to the millisecond (createdAt has whole seconds): for listLagMs. */
  #madeAt = new Map()
  /** API requests being answered now, admitted by the limits. */
  #inFlight = 0
  /** @type {{ tokens: number, at: number } | undefined} the rate limit's bucket */
  #bucket
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
    const record = this.#newRecord(spec.name, createdAt, spec)
    if (spec.state === 'revoked') this.#revokeRecord(record)
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
    this.#faults.push({ times: 1, ...fault })
    return this
  }

  /** How many times the faults still have to hit, in all. */
  faultsLeft() {
    return this.#faults.reduce((sum, fault) => sum + fault.times, 0)
  }

  /** The requests of one server, or all, as `METHOD path` lines, the paths raw as sent. */
  requestLines(server = /** @type {'auth' | 'api' | undefined} */ (undefined)) {
    return this.requests
      .filter((request) => server === undefined || request.server === server)
      .map((request) => `${request.method} ${request.path}`)
  }

  /**
   * @param {'auth' | 'api'} server
   * @param {import('node:http').IncomingMessage} req
   * @param {import('node:http').ServerResponse} res
   */
  async #receive(server, req, res) {
    const body = await readBody(req)
    /** @type {RecordedRequest} */
    const request = {
      server,
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      body,
      at: Date.now(),
    }
    this.requests.push(request)
    // The limits decide on arrival: a server turns a request away before working on it.
    const throttle = request.server === 'api' ? this.#overLimit() : undefined
    const admitted = request.server === 'api' && throttle === undefined
    if (admitted) this.maxInFlight = Math.max(this.maxInFlight, ++this.#inFlight)
    try {
      if (this.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, this.latencyMs))
      if (throttle !== undefined) return void this.#send(req, res, throttle)
      const fault = this.#takeFault(request)
      if (fault?.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs))
      const carriedOut = fault === undefined || fault.commit ? this.#handle(request) : undefined
      if (fault?.commitAfterMs !== undefined) {
        setTimeout(() => void this.#handle(request), fault.commitAfterMs).unref()
      }
      if (fault?.drop === 'reset') return void req.socket.resetAndDestroy()
      if (fault?.drop === 'hang') return // The connection stays open, unanswered, until close().
      /** @type {Answer} */
      const answer =
        fault?.status !== undefined
          ? { status: fault.status, json: { error: `Injected ${fault.status}` } }
          : (carriedOut ?? this.#handle(request))
      this.#send(req, res, fault === undefined ? answer : applyFault(answer, fault, request))
    } finally {
      if (admitted) this.#inFlight--
    }
  }

  /**
   * @param {RecordedRequest} request
   * @returns {Answer}
   */
  #handle(request) {
    if (request.server === 'auth') return this.#authenticate(request)
    return this.#api(request)
  }

  /**
   * A 429 answer when an API request arriving now is over a limit, else undefined (and the
   * request takes a token from the bucket).
   * @returns {Answer | undefined}
   */
  #overLimit() {
    const inFlight = this.inFlightLimit
    if (inFlight !== undefined && this.#inFlight >= inFlight.max) {
      this.throttled++
      return tooMany(1000, inFlight.retryAfter)
    }
    const rate = this.rateLimit
    if (rate === undefined) return undefined
    const now = Date.now()
    const bucket = this.#bucket ?? { tokens: rate.burst, at: now }
    bucket.tokens = Math.min(
      rate.burst,
      bucket.tokens + ((now - bucket.at) * rate.perSecond) / 1000,
    )
    bucket.at = now
    this.#bucket = bucket
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1
      return undefined
    }
    this.throttled++
    return tooMany(((1 - bucket.tokens) * 1000) / rate.perSecond, rate.retryAfter)
  }

  /**
   * The first fault that matches the request, used up by one.
   * @param {RecordedRequest} request
   */
  #takeFault(request) {
    const pathname = rawPathname(request.path)
    const path = request.server === 'api' ? pathname.slice(this.apiPrefix.length) : pathname
    const fault = this.#faults.find(
      (f) =>
        f.times > 0 &&
        (f.server === undefined || f.server === request.server) &&
        (f.method === undefined || f.method === request.method) &&
        (f.path === undefined ||
          (typeof f.path === 'string' ? f.path === path : f.path.test(path))),
    )
    if (fault !== undefined) fault.times--
    return fault
  }

  /**
   * @param {RecordedRequest} request
   * @returns {Answer}
   */
  #authenticate(request) {
    const answer = this.#authAnswer(request)
    if (this.rewriteAuth === undefined) return answer
    const json = this.rewriteAuth(answer.json, { status: answer.status, request })
    if (answer.status === 200 && isObject(json)) {
      const expires = this.now() + this.accessTokenLifetime * 1000
      for (const field of ['access_token', 'accessToken', 'refresh_token']) {
        const value = json[field]
        if (typeof value !== 'string' || value === '') continue
        this.issuedSecrets.add(value)
        if (field !== 'refresh_token') this.#accessTokens.set(value, expires)
      }
    }
    return { ...answer, json }
  }

  /**
   * @param {RecordedRequest} request
   * @returns {Answer}
   */
  #authAnswer(request) {
    const pathname = rawPathname(request.path)
    if (pathname !== this.authPath) return error(404, `No route ${pathname}`)
    if (request.method !== 'POST') return error(405, 'Method not allowed')
    if (!isJson(request)) return error(415, 'Content-Type must be application/json')
    const credentials = parseJson(request.body)
    if (typeof credentials?.clientId !== 'string' || typeof credentials.secret !== 'string') {
      return error(400, 'clientId and secret are required')
    }
    if (credentials.clientId !== this.clientId || credentials.secret !== this.clientSecret) {
      return error(401, 'Invalid client credentials')
    }
    const accessToken = jwtLike({ sub: this.clientId, kind: 'access' })
    const refreshToken = `rt_${randomBytes(24).toString('base64url')}`
    const expires = this.now() + this.accessTokenLifetime * 1000
    this.#accessTokens.set(accessToken, expires)
    this.issuedSecrets.add(accessToken).add(refreshToken)
    return {
      status: 200,
      json: {
        access_token: accessToken,
        refresh_token: refreshToken,
        expires_in: this.accessTokenLifetime,
        expires: new Date(expires).toUTCString(),
      },
    }
  }

  /**
   * Routes on the path as sent, not normalised: `/api/tokens/%2E%2E/revoke` revokes
   * the token whose id is `..`, as a router that decodes its parameters would.
   * @param {RecordedRequest} request
   * @returns {Answer}
   */
  #api(request) {
    const pathname = rawPathname(request.path)
    const query = new URLSearchParams(request.path.slice(pathname.length + 1))
    const path = pathname.startsWith(this.apiPrefix) ? pathname.slice(this.apiPrefix.length) : ''
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1]
    const expiry = bearer === undefined ? undefined : this.#accessTokens.get(bearer)
    if (expiry === undefined || expiry <= this.now()) return error(401, 'Unauthorized')
    if (this.role === 'viewer' && request.method !== 'GET') {
      return error(403, 'Your role may not manage gateway tokens')
    }

    if (path === '/api/tokens' && request.method === 'POST') return this.#create(request)
    if (path === '/api/tokens' && request.method === 'GET') {
      if (request.body !== '') return error(400, 'GET takes no body')
      // A list that lags leaves out what was created in the last listLagMs.
      const since = Date.now() - this.listLagMs
      const records = [...this.tokens.values()]
        .filter((token) => (this.#madeAt.get(token.id) ?? 0) <= since)
        .map((token) => this.#present(token, 'list'))
      return { status: 200, json: this.duplicateRecords ? [...records, ...records] : records }
    }
    const revoke = /^\/api\/tokens\/([^/]+)\/revoke$/.exec(path)
    if (revoke && request.method === 'POST') {
      const id = decodeSegment(revoke[1] ?? '')
      if (id === undefined) return error(400, 'The token id is not valid percent-encoding')
      return this.#revoke(id, query, request)
    }
    return error(404, `No route ${request.method} ${pathname}`)
  }

  /**
   * @param {RecordedRequest} request
   * @returns {Answer}
   */
  #create(request) {
    if (!isJson(request)) return error(415, 'Content-Type must be application/json')
    const body = parseJson(request.body)
    if (typeof body?.name !== 'string' || body.name.trim() === '')
      return error(400, 'name is required')
    const record = this.#newRecord(body.name, timestamp(this.now()))
    return { status: 201, json: this.#present(record, 'create') }
  }

  /**
   * @param {string} id
   * @param {URLSearchParams} query
   * @param {RecordedRequest} request
   * @returns {Answer}
   */
  #revoke(id, query, request) {
    if (query.get('tokenId') !== id) {
      return error(400, 'tokenId must be given in both the path and the query, with the same value')
    }
    if (request.body !== '') return error(400, 'revoke takes no body')
    const record = this.tokens.get(id)
    if (record === undefined) return error(404, 'Token not found')
    if (record.state === 'revoked') {
      return this.alreadyRevokedStatus === 404
        ? error(404, 'Token not found')
        : error(this.alreadyRevokedStatus, 'Token is already revoked')
    }
    this.#revokeRecord(record)
    return { status: 200, json: this.#present(record, 'revoke') }
  }

  /**
   * What an answer carries for a stored record: a copy, rewritten by rewriteRecord.
   * @param {TokenRecord} record
   * @param {RecordAnswer} answer
   */
  #present(record, answer) {
    const copy = { ...record }
    if (this.rewriteRecord === undefined) return copy
    const sent = this.rewriteRecord(copy, answer)
    if (isObject(sent) && typeof sent.tokenValue === 'string' && sent.tokenValue !== '') {
      this.issuedSecrets.add(sent.tokenValue)
    }
    return sent
  }

  /**
   * @param {string} name
   * @param {string} createdAt
   * @param {Omit<SeedSpec, 'name' | 'state' | 'ageMs' | 'createdAt'>} [fields]
   */
  #newRecord(name, createdAt, fields = {}) {
    /** @type {TokenRecord} */
    const record = {
      id: fields.id ?? randomUUID(),
      name,
      tokenValue: jwtLike({ sub: 'mediator', name }),
      mediatorId: fields.mediatorId ?? randomUUID(),
      projectId: fields.projectId ?? PROJECT_ID,
      createdBy: USER_ID,
      createdByEmail: USER_EMAIL,
      state: 'active',
      createdAt,
    }
    this.tokens.set(record.id, record)
    this.#madeAt.set(record.id, Date.now())
    return record
  }

  /** @param {TokenRecord} record */
  #revokeRecord(record) {
    delete record.tokenValue
    record.state = 'revoked'
    record.revokedAt = timestamp(this.now())
    record.revokedBy = USER_ID
  }

  /**
   * Sends an answer through Node, or raw on the socket when Node refuses its status,
   * reason phrase or a header (a control character, a character above U+00FF).
   * @param {import('node:http').IncomingMessage} req
   * @param {import('node:http').ServerResponse} res
   * @param {Answer} answer
   */
  #send(req, res, answer) {
    const body =
      answer.body ?? (answer.json === undefined ? '' : (JSON.stringify(answer.json) ?? ''))
    const type = answer.body === undefined ? 'application/json' : (answer.type ?? TEXT)
    /** @type {AnswerHeaders} */
    const headers = {
      'Content-Type': type,
      'Content-Length': String(Buffer.byteLength(body)),
      // The platform's own clock, not Node's: see clockOffsetMs.
      ...(this.sendDate ? { Date: new Date(this.now()).toUTCString() } : {}),
      ...answer.headers,
    }
    const statusText = answer.statusText ?? STATUS_CODES[answer.status] ?? ''
    if (!sendable(answer.status, statusText, headers)) {
      writeRaw(req.socket, answer.status, statusText, headers, body)
      return
    }
    res.sendDate = false
    res.writeHead(answer.status, statusText, headers)
    res.end(body)
  }
}

/** @param {FakePlatformOptions} [options] */
export async function startFakePlatform(options) {
  return new FakePlatform(options).start()
}

const TEXT = 'text/plain; charset=utf-8'

/**
 * An ISO 8601 UTC timestamp with whole seconds, as in the platform's public samples
 * (`2026-05-26T19:16:45Z`): two tokens made in the same second tie.
 * @param {number} ms
 */
export function timestamp(ms) {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/\.000Z$/, 'Z')
}

/**
 * A JSON text of `depth` nested objects, `{"a":{"a":{}}}` for 3, built without
 * recursion so that any depth can be sent.
 * @param {number} depth at least 1
 */
export function nestedJson(depth) {
  if (!Number.isInteger(depth) || depth < 1) throw new RangeError(`nest must be 1 or more`)
  return `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`
}

/**
 * The answer a fault makes of the answer the platform would give (or the injected one).
 * @param {Answer} answer
 * @param {Fault} fault
 * @param {RecordedRequest} request
 * @returns {Answer}
 */
function applyFault(answer, fault, request) {
  /** @type {Answer} */
  let changed = answer
  if (fault.echo !== undefined) changed = { status: answer.status, ...echo(fault.echo, request) }
  else if (fault.nest !== undefined) {
    changed = { status: answer.status, body: nestedJson(fault.nest), type: 'application/json' }
  } else if (fault.json !== undefined) changed = { status: answer.status, json: fault.json }
  else if (fault.body !== undefined) changed = { status: answer.status, body: fault.body }
  else if (fault.status === undefined) changed = { ...answer }
  if (answer.headers !== undefined || fault.headers !== undefined) {
    changed.headers = { ...answer.headers, ...fault.headers }
  }
  if (fault.statusText !== undefined) changed.statusText = fault.statusText
  return changed
}

/**
 * @param {Echo} how
 * @param {RecordedRequest} request
 * @returns {Omit<Answer, 'status'>}
 */
function echo(how, request) {
  if (typeof how === 'function') return { body: how(request) }
  const text =
    how === 'body' ? request.body : how === 'path' ? request.path : JSON.stringify(request.headers)
  return { json: { error: `Cannot process this request: ${text}` } }
}

/** @typedef {'seconds' | '0' | 'none'} RetryAfterStyle how a 429 says when to come back */

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

/**
 * @param {number} status
 * @param {string} message
 * @returns {Answer}
 */
function error(status, message) {
  return { status, json: { error: message } }
}

/**
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * The path of a request target as sent, without its query.
 * @param {string} target
 */
function rawPathname(target) {
  const query = target.indexOf('?')
  return query < 0 ? target : target.slice(0, query)
}

/**
 * @param {string} segment
 * @returns {string | undefined}
 */
function decodeSegment(segment) {
  try {
    return decodeURIComponent(segment)
  } catch {
    return undefined
  }
}

/** @param {RecordedRequest} request */
function isJson(request) {
  return /^application\/json\b/i.test(request.headers['content-type'] ?? '')
}

/**
 * @param {string} text
 * @returns {Record<string, unknown> | undefined}
 */
function parseJson(text) {
  try {
    const value = /** @type {unknown} */ (JSON.parse(text))
    return isObject(value) ? value : undefined
  } catch {
    return undefined
  }
}

/** @param {Record<string, string>} claims */
function jwtLike(claims) {
  const part = (/** @type {object} */ value) =>
    Buffer.from(JSON.stringify(value)).toString('base64url')
  const payload = { ...claims, jti: randomUUID() }
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part(payload)}.${randomBytes(32).toString('base64url')}`
}

/** @param {import('node:http').IncomingMessage} req */
async function readBody(req) {
  const chunks = []
  for await (const chunk of req) chunks.push(chunk)
  return Buffer.concat(chunks).toString('utf8')
}

/**
 * Whether Node will send this status line and these headers as they are.
 * @param {number} status
 * @param {string} statusText
 * @param {AnswerHeaders} headers
 */
function sendable(status, statusText, headers) {
  if (!Number.isInteger(status) || status < 100 || status > 999) return false
  if (/[^\t\x20-\x7e\x80-\xff]/.test(statusText)) return false
  try {
    for (const [name, value] of Object.entries(headers)) {
      validateHeaderName(name)
      for (const one of [value].flat()) validateHeaderValue(name, one)
    }
    return true
  } catch {
    return false
  }
}

/**
 * Writes an HTTP/1.1 answer on the socket by hand, UTF-8 encoded, and closes it.
 * @param {import('node:net').Socket} socket
 * @param {number} status
 * @param {string} statusText
 * @param {AnswerHeaders} headers
 * @param {string} body
 */
function writeRaw(socket, status, statusText, headers, body) {
  const lines = [`HTTP/1.1 ${status} ${statusText}`]
  for (const [name, value] of Object.entries(headers)) {
    for (const one of [value].flat()) lines.push(`${name}: ${one}`)
  }
  lines.push('Connection: close', '', '')
  socket.end(Buffer.from(lines.join('\r\n') + body, 'utf8'))
}

/**
 * @param {import('node:http').Server} server
 * @param {number} port
 * @returns {Promise<number>}
 */
function listen(server, port) {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => {
      const address = server.address()
      resolve(typeof address === 'object' && address !== null ? address.port : port)
    })
  })
}

/** @param {import('node:http').Server} server */
function close(server) {
  return new Promise((resolve) => server.close(() => resolve(undefined)))
}

// `node test/support/fake-platform.mjs [authPort apiPort]`: a platform to run the action against by hand.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [authPort, apiPort] = process.argv.slice(2).map(Number)
  const platform = await startFakePlatform({
    authPort: authPort ?? 0,
    apiPort: apiPort ?? 0,
    clientSecret: process.env.FAKE_PLATFORM_CLIENT_SECRET ?? 'local-fake-secret',
  })
  console.log(JSON.stringify(platform.connectionInputs()))
  const stop = () => void platform.close().then(() => process.exit(0))
  process.on('SIGINT', stop).on('SIGTERM', stop)
}
