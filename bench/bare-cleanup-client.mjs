// @ts-check
// What the two bare throttled clients share (node-throttled-floor.mjs and
// node-throttled-adaptive.mjs): node:http with keep-alive, authentication, the ids of the
// active tokens older than OLDER_THAN_DAYS, and the wait a Retry-After asks for. No checks,
// no masking, nothing of the action: they are the programs the action is measured against.
// Environment: PLATFORM_AUTH_URL, PLATFORM_API_URL, CLIENT_ID, CLIENT_SECRET, OLDER_THAN_DAYS.
import { createRequire } from 'node:module'

const http = createRequire(import.meta.url)('node:http')
export const agent = new http.Agent({ keepAlive: true })
const { env } = process

/**
 * @param {string} method
 * @param {string} url
 * @param {string | undefined} body
 * @param {Record<string, string>} headers
 * @returns {Promise<{ status: number, json: any, retryAfter: string | undefined, date: string | undefined }>}
 */
export function call(method, url, body, headers) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent, headers }, (/** @type {any} */ res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (/** @type {string} */ chunk) => (text += chunk))
      res.on('end', () =>
        resolve({
          status: res.statusCode,
          json: text ? JSON.parse(text) : null,
          retryAfter: res.headers['retry-after'],
          date: res.headers.date,
        }),
      )
    })
    req.on('error', reject)
    req.end(body)
  })
}

/** Authenticates with CLIENT_ID and CLIENT_SECRET; returns the Bearer header. */
export async function authenticate() {
  const auth = await call(
    'POST',
    `${env.PLATFORM_AUTH_URL}/idp/identity/resources/auth/v2/api-token`,
    JSON.stringify({ clientId: env.CLIENT_ID, secret: env.CLIENT_SECRET }),
    { 'Content-Type': 'application/json' },
  )
  return { Authorization: `Bearer ${auth.json.access_token}` }
}

/**
 * Lists the tokens; returns the ids of the active ones older than OLDER_THAN_DAYS.
 * @param {Record<string, string>} bearer
 * @returns {Promise<string[]>}
 */
export async function oldTokenIds(bearer) {
  const listed = await call('GET', `${env.PLATFORM_API_URL}/api/tokens`, undefined, bearer)
  const cutoff = Date.now() - Number(env.OLDER_THAN_DAYS) * 86_400_000
  return listed.json
    .filter((/** @type {any} */ t) => t.state === 'active' && Date.parse(t.createdAt) < cutoff)
    .map((/** @type {any} */ t) => t.id)
}

/**
 * Revokes one token; returns the answer's status and Retry-After.
 * @param {string} id
 * @param {Record<string, string>} bearer
 */
export function revoke(id, bearer) {
  const url = `${env.PLATFORM_API_URL}/api/tokens/${id}/revoke?tokenId=${id}`
  return call('POST', url, undefined, bearer)
}

/**
 * The wait a Retry-After asks for, in milliseconds: seconds (fractional ones too), or an
 * HTTP date read against the answer's Date header; undefined without one.
 * @param {{ retryAfter: string | undefined, date: string | undefined }} answer
 */
export function retryAfterMs({ retryAfter, date }) {
  if (retryAfter === undefined) return undefined
  const seconds = Number(retryAfter)
  if (!Number.isNaN(seconds)) return seconds * 1000
  return Math.max(0, Date.parse(retryAfter) - Date.parse(date ?? new Date().toUTCString()))
}
