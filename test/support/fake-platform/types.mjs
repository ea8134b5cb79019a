// The fake platform's types: records, requests, answers, faults, seeds, options, state.
// @ts-check

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
 * @property {number} [dated] the time of its Date header, on the platform's clock (default:
 *   when it is sent)
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
 * @property {() => number} [now] the clock, in milliseconds, for createdAt, revokedAt, expiry,
 *   the Date header and the throttle
 * @property {number} [latencyMs] delay every answer by this much, like a platform across a network
 */

/**
 * What a FakePlatform keeps to itself, shared with the modules that answer for it.
 * @typedef {object} PlatformState
 * @property {Map<string, number>} accessTokens access token -> expiry time
 * @property {(Fault & { times: number })[]} faults
 * @property {Map<string, number>} madeAt when each token was made, to the millisecond
 *   (createdAt has whole seconds): for listLagMs
 * @property {import('./throttle.mjs').Throttle} throttle decides on each API request's arrival
 *   and counts those in flight (one without a limit when none is set)
 */
