// The auth endpoint: client credentials checked, access tokens issued, rewriteAuth applied.
// @ts-check
import { randomBytes } from 'node:crypto'
import { error, isJson, isObject, parseJson, rawPathname } from './messages.mjs'
import { jwtLike } from './records.mjs'

/** @typedef {import('./types.mjs').RecordedRequest} RecordedRequest */
/** @typedef {import('./types.mjs').Answer} Answer */
/** @typedef {import('./platform.mjs').FakePlatform} FakePlatform */

/**
 * @param {FakePlatform} platform
 * @param {Map<string, number>} accessTokens access token -> expiry time (PlatformState)
 * @param {RecordedRequest} request
 * @returns {Answer}
 */
export function authenticate(platform, accessTokens, request) {
  const answer = authAnswer(platform, accessTokens, request)
  if (platform.rewriteAuth === undefined) return answer
  const json = platform.rewriteAuth(answer.json, { status: answer.status, request })
  if (answer.status === 200 && isObject(json)) {
    const expires = platform.now() + platform.accessTokenLifetime * 1000
    for (const field of ['access_token', 'accessToken', 'refresh_token']) {
      const value = json[field]
      if (typeof value !== 'string' || value === '') continue
      platform.issuedSecrets.add(value)
      if (field !== 'refresh_token') accessTokens.set(value, expires)
    }
  }
  return { ...answer, json }
}

/**
 * @param {FakePlatform} platform
 * @param {Map<string, number>} accessTokens
 * @param {RecordedRequest} request
 * @returns {Answer}
 */
function authAnswer(platform, accessTokens, request) {
  const pathname = rawPathname(request.path)
  if (pathname !== platform.authPath) return error(404, `No route ${pathname}`)
  if (request.method !== 'POST') return error(405, 'Method not allowed')
  if (!isJson(request)) return error(415, 'Content-Type must be application/json')
  const credentials = parseJson(request.body)
  if (typeof credentials?.clientId !== 'string' || typeof credentials.secret !== 'string') {
    return error(400, 'clientId and secret are required')
  }
  if (credentials.clientId !== platform.clientId || credentials.secret !== platform.clientSecret) {
    return error(401, 'Invalid client credentials')
  }
  const accessToken = jwtLike({ sub: platform.clientId, kind: 'access' })
  const refreshToken = `rt_${randomBytes(24).toString('base64url')}`
  const expires = platform.now() + platform.accessTokenLifetime * 1000
  accessTokens.set(accessToken, expires)
  platform.issuedSecrets.add(accessToken).add(refreshToken)
  return {
    status: 200,
    json: {
      access_token: accessToken,
      refresh_token: refreshToken,
      expires_in: platform.accessTokenLifetime,
      expires: new Date(expires).toUTCString(),
    },
  }
}
