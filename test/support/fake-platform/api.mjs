// The REST API: the Bearer token and role checked, then create, list and revoke of tokens.
// @ts-check
import { error, isJson, parseJson, rawPathname } from './messages.mjs'
import { newRecord, present, revokeRecord, timestamp } from './records.mjs'

/** @typedef {import('./types.mjs').RecordedRequest} RecordedRequest */
/** @typedef {import('./types.mjs').Answer} Answer */
/** @typedef {import('./types.mjs').PlatformState} PlatformState */
/** @typedef {import('./platform.mjs').FakePlatform} FakePlatform */

/**
 * Routes on the path as sent, not normalised: `/api/tokens/%2E%2E/revoke` revokes
 * the token whose id is `..`, as a router that decodes its parameters would.
 * @param {FakePlatform} platform
 * @param {PlatformState} state
 * @param {RecordedRequest} request
 * @returns {Answer}
 */
export function answerApi(platform, state, request) {
  const pathname = rawPathname(request.path)
  const query = new URLSearchParams(request.path.slice(pathname.length + 1))
  const path = pathname.startsWith(platform.apiPrefix)
    ? pathname.slice(platform.apiPrefix.length)
    : ''
  const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1]
  const expiry = bearer === undefined ? undefined : state.accessTokens.get(bearer)
  if (expiry === undefined || expiry <= platform.now()) return error(401, 'Unauthorized')
  if (platform.role === 'viewer' && request.method !== 'GET') {
    return error(403, 'Your role may not manage gateway tokens')
  }

  if (path === '/api/tokens' && request.method === 'POST') return create(platform, state, request)
  if (path === '/api/tokens' && request.method === 'GET') {
    if (request.body !== '') return error(400, 'GET takes no body')
    // A list that lags leaves out what was created in the last listLagMs.
    const since = Date.now() - platform.listLagMs
    const records = [...platform.tokens.values()]
      .filter((token) => (state.madeAt.get(token.id) ?? 0) <= since)
      .map((token) => present(platform, token, 'list'))
    return { status: 200, json: platform.duplicateRecords ? [...records, ...records] : records }
  }
  const revoke = /^\/api\/tokens\/([^/]+)\/revoke$/.exec(path)
  if (revoke && request.method === 'POST') {
    const id = decodeSegment(revoke[1] ?? '')
    if (id === undefined) return error(400, 'The token id is not valid percent-encoding')
    return revokeToken(platform, id, query, request)
  }
  return error(404, `No route ${request.method} ${pathname}`)
}

/**
 * @param {FakePlatform} platform
 * @param {PlatformState} state
 * @param {RecordedRequest} request
 * @returns {Answer}
 */
function create(platform, state, request) {
  if (!isJson(request)) return error(415, 'Content-Type must be application/json')
  const body = parseJson(request.body)
  if (typeof body?.name !== 'string' || body.name.trim() === '')
    return error(400, 'name is required')
  const record = newRecord(platform, state.madeAt, body.name, timestamp(platform.now()))
  return { status: 201, json: present(platform, record, 'create') }
}

/**
 * @param {FakePlatform} platform
 * @param {string} id
 * @param {URLSearchParams} query
 * @param {RecordedRequest} request
 * @returns {Answer}
 */
function revokeToken(platform, id, query, request) {
  if (query.get('tokenId') !== id) {
    return error(400, 'tokenId must be given in both the path and the query, with the same value')
  }
  if (request.body !== '') return error(400, 'revoke takes no body')
  const record = platform.tokens.get(id)
  if (record === undefined) return error(404, 'Token not found')
  if (record.state === 'revoked') {
    return platform.alreadyRevokedStatus === 404
      ? error(404, 'Token not found')
      : error(platform.alreadyRevokedStatus, 'Token is already revoked')
  }
  revokeRecord(platform, record)
  return { status: 200, json: present(platform, record, 'revoke') }
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
