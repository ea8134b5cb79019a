// @ts-check
/**
 * A fake of the platform as real HTTP servers on 127.0.0.1: the auth endpoint and the
 * REST API on two ports, records in memory. It is as strict as the spec
 * (../shared/spec/gateway-token-api.md): it checks Content-Type, the Bearer token, a
 * JSON `name`, and that a revoke carries the token id in path and query alike.
 *
 * Used by the end-to-end tests and `npm run demo`; `node test/support/fake-platform.mjs`
 * starts one by hand and prints its addresses.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import { createServer } from 'node:http'
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
 * @property {string} path the path with its query string, as sent
 * @property {import('node:http').IncomingHttpHeaders} headers
 * @property {string} body
 * @property {number} at arrival time (Date.now(), not the fake clock)
 */

/**
 * A fault the platform shows to matching requests, `times` times (default once).
 * Without `commit` the request is not carried out; with it, the change is made and
 * then the answer is lost or replaced, as when a proxy fails after the platform acted.
 * @typedef {object} Fault
 * @property {'auth' | 'api'} [server] which server (both when absent)
 * @property {string} [method]
 * @property {string | RegExp} [path] the path without its query (and without apiPrefix)
 * @property {number} [times] how many requests it hits; Infinity for all
 * @property {boolean} [commit] carry the request out first
 * @property {number} [delayMs] answer this much later
 * @property {'reset' | 'hang'} [drop] reset the connection, or never answer
 * @property {number} [status] answer with this status instead
 * @property {Record<string, string>} [headers] with these headers
 * @property {string} [body] this raw body (default: a JSON error)
 * @property {unknown} [json] or this JSON body
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
  /** @type {Map<string, TokenRecord>} in creation order */
  tokens = new Map()
  /** @type {RecordedRequest[]} every request, in arrival order */
  requests = []
  /** @type {Set<string>} access tokens issued, for leak checks */
  issuedSecrets = new Set()
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
    this.now = options.now ?? (() => Date.now())
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
     * Rate limiting of the API, off when undefined: at most `requests` in each window
     * of `windowMs`; the others get 429 with a Retry-After to the next window.
     * @type {{ requests: number, windowMs: number } | undefined}
     */
    this.rateLimit = undefined
    /** How many requests the rate limit turned away. */
    this.throttled = 0
    this.#window = { start: 0, count: 0 }
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
        void this.#receive(server, req, res)
    const { tls } = options
    this.#authServer = tls ? createTlsServer(tls, handler('auth')) : createServer(handler('auth'))
    this.#apiServer = tls ? createTlsServer(tls, handler('api')) : createServer(handler('api'))
    this.#origin = `${tls ? 'https' : 'http'}://${options.host ?? '127.0.0.1'}`
  }

  /** @type {{ auth: number, api: number }} */
  #ports
  /** @type {{ start: number, count: number }} */
  #window
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
   * Adds a token as if created earlier.
   * @param {{ name: string, ageMs?: number, createdAt?: string, state?: 'active' | 'revoked' }} spec
   */
  seed(spec) {
    const createdAt = spec.createdAt ?? new Date(this.now() - (spec.ageMs ?? 0)).toISOString()
    const record = this.#newRecord(spec.name, createdAt)
    if (spec.state === 'revoked') this.#revokeRecord(record)
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

  /** The requests of one server, or all, as `METHOD path` lines. */
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
    if (this.latencyMs > 0) await new Promise((resolve) => setTimeout(resolve, this.latencyMs))
    const fault = this.#takeFault(request)
    if (fault?.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs))
    const carriedOut = fault === undefined || fault.commit ? this.#handle(request) : undefined
    if (fault?.drop === 'reset') return void req.socket.resetAndDestroy()
    if (fault?.drop === 'hang') return // The connection stays open, unanswered, until close().
    if (fault?.status !== undefined) {
      const payload = fault.json ?? fault.body ?? { error: `Injected ${fault.status}` }
      return void send(res, fault.status, payload, fault.headers)
    }
    const { status, payload, headers } = carriedOut ?? this.#handle(request)
    send(res, status, payload, headers)
  }

  /**
   * @param {RecordedRequest} request
   * @returns {{ status: number, payload: unknown, headers?: Record<string, string> }}
   */
  #handle(request) {
    if (request.server === 'auth') return this.#authenticate(request)
    const wait = this.#rateLimited()
    if (wait !== undefined) {
      this.throttled++
      return { ...error(429, 'Too many requests'), headers: { 'Retry-After': String(wait) } }
    }
    return this.#api(request)
  }

  /** Seconds to the next window when this request is over the rate limit, else undefined. */
  #rateLimited() {
    if (this.rateLimit === undefined) return undefined
    const now = Date.now()
    if (now - this.#window.start >= this.rateLimit.windowMs) this.#window = { start: now, count: 0 }
    if (++this.#window.count <= this.rateLimit.requests) return undefined
    return Math.max(1, Math.ceil((this.#window.start + this.rateLimit.windowMs - now) / 1000))
  }

  /**
   * The first fault that matches the request, used up by one.
   * @param {RecordedRequest} request
   */
  #takeFault(request) {
    const pathname = new URL(request.path, 'http://fake').pathname
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

  /** @param {RecordedRequest} request */
  #authenticate(request) {
    const url = new URL(request.path, 'http://fake')
    if (url.pathname !== this.authPath) return error(404, `No route ${url.pathname}`)
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
      payload: {
        access_token: accessToken,
        refresh_token: refreshToken,
        expires_in: this.accessTokenLifetime,
        expires: new Date(expires).toUTCString(),
      },
    }
  }

  /** @param {RecordedRequest} request */
  #api(request) {
    const url = new URL(request.path, 'http://fake')
    const path = url.pathname.startsWith(this.apiPrefix)
      ? url.pathname.slice(this.apiPrefix.length)
      : ''
    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1]
    const expiry = bearer === undefined ? undefined : this.#accessTokens.get(bearer)
    if (expiry === undefined || expiry <= this.now()) return error(401, 'Unauthorized')
    if (this.role === 'viewer' && request.method !== 'GET') {
      return error(403, 'Your role may not manage gateway tokens')
    }

    if (path === '/api/tokens' && request.method === 'POST') return this.#create(request)
    if (path === '/api/tokens' && request.method === 'GET') {
      if (request.body !== '') return error(400, 'GET takes no body')
      return { status: 200, payload: [...this.tokens.values()].map((token) => ({ ...token })) }
    }
    const revoke = /^\/api\/tokens\/([^/]+)\/revoke$/.exec(path)
    if (revoke && request.method === 'POST') {
      return this.#revoke(decodeURIComponent(revoke[1] ?? ''), url.searchParams, request)
    }
    return error(404, `No route ${request.method} ${url.pathname}`)
  }

  /** @param {RecordedRequest} request */
  #create(request) {
    if (!isJson(request)) return error(415, 'Content-Type must be application/json')
    const body = parseJson(request.body)
    if (typeof body?.name !== 'string' || body.name.trim() === '')
      return error(400, 'name is required')
    const record = this.#newRecord(body.name, new Date(this.now()).toISOString())
    return { status: 201, payload: { ...record } }
  }

  /**
   * @param {string} id
   * @param {URLSearchParams} query
   * @param {RecordedRequest} request
   */
  #revoke(id, query, request) {
    if (query.get('tokenId') !== id) {
      return error(400, 'tokenId must be given in both the path and the query, with the same value')
    }
    if (request.body !== '') return error(400, 'revoke takes no body')
    const record = this.tokens.get(id)
    if (record === undefined) return error(404, 'Token not found')
    if (record.state === 'revoked') return error(409, 'Token is already revoked')
    this.#revokeRecord(record)
    return { status: 200, payload: { ...record } }
  }

  /**
   * @param {string} name
   * @param {string} createdAt
   */
  #newRecord(name, createdAt) {
    /** @type {TokenRecord} */
    const record = {
      id: randomUUID(),
      name,
      tokenValue: jwtLike({ sub: 'mediator', name }),
      mediatorId: randomUUID(),
      projectId: PROJECT_ID,
      createdBy: USER_ID,
      createdByEmail: USER_EMAIL,
      state: 'active',
      createdAt,
    }
    this.tokens.set(record.id, record)
    return record
  }

  /** @param {TokenRecord} record */
  #revokeRecord(record) {
    delete record.tokenValue
    record.state = 'revoked'
    record.revokedAt = new Date(this.now()).toISOString()
    record.revokedBy = USER_ID
  }
}

/** @param {FakePlatformOptions} [options] */
export async function startFakePlatform(options) {
  return new FakePlatform(options).start()
}

/**
 * @param {number} status
 * @param {string} message
 */
function error(status, message) {
  return { status, payload: { error: message } }
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
    const value = JSON.parse(text)
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined
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
 * Answers with a JSON payload, or a raw string body as it is.
 * @param {import('node:http').ServerResponse} res
 * @param {number} status
 * @param {unknown} payload
 * @param {Record<string, string>} [headers]
 */
function send(res, status, payload, headers = {}) {
  const raw = typeof payload === 'string'
  const body = raw ? payload : JSON.stringify(payload)
  const type = raw ? 'text/plain; charset=utf-8' : 'application/json'
  res.writeHead(status, {
    'Content-Type': type,
    'Content-Length': Buffer.byteLength(body),
    ...headers,
  })
  res.end(body)
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
