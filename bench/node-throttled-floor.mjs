// @ts-check
// A cleanup by a client that knows the platform's limit: node:http, authenticate, list,
// then revoke every old token, never more in flight than the limit allows and never faster
// than its rate (with the burst it allows), so that it meets no 429. The benchmark runs it
// beside the action under the same limit: the floor that no client which must learn the
// limit can beat. Environment: as node-floor.mjs, plus OLDER_THAN_DAYS, IN_FLIGHT (the most
// in flight: the platform's limit, or the action's concurrency if lower), and PER_SECOND
// and BURST for a rate limit.
import { createRequire } from 'node:module'

const http = createRequire(import.meta.url)('node:http')
const agent = new http.Agent({ keepAlive: true })
const { env } = process

/**
 * @param {string} method
 * @param {string} url
 * @param {string | undefined} body
 * @param {Record<string, string>} headers
 * @returns {Promise<{ status: number, json: any }>}
 */
function call(method, url, body, headers) {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, agent, headers }, (/** @type {any} */ res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (/** @type {string} */ chunk) => (text += chunk))
      res.on('end', () => resolve({ status: res.statusCode, json: text ? JSON.parse(text) : null }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

const json = { 'Content-Type': 'application/json' }
const auth = await call(
  'POST',
  `${env.PLATFORM_AUTH_URL}/idp/identity/resources/auth/v2/api-token`,
  JSON.stringify({ clientId: env.CLIENT_ID, secret: env.CLIENT_SECRET }),
  json,
)
const bearer = { Authorization: `Bearer ${auth.json.access_token}` }
const perSecond = Number(env.PER_SECOND || Infinity)
// The platform's bucket, as the client keeps it: the list takes one of its tokens.
let tokens = Number(env.BURST || 1) - 1
let refilledAt = Date.now()
const take = async () => {
  for (;;) {
    const now = Date.now()
    tokens = Math.min(Number(env.BURST || 1), tokens + ((now - refilledAt) * perSecond) / 1000)
    refilledAt = now
    if (tokens >= 1) return void (tokens -= 1)
    await new Promise((resolve) => setTimeout(resolve, ((1 - tokens) * 1000) / perSecond + 1))
  }
}

const listed = await call('GET', `${env.PLATFORM_API_URL}/api/tokens`, undefined, bearer)
const cutoff = Date.now() - Number(env.OLDER_THAN_DAYS) * 86_400_000
/** @type {string[]} */
const ids = listed.json
  .filter((/** @type {any} */ t) => t.state === 'active' && Date.parse(t.createdAt) < cutoff)
  .map((/** @type {any} */ t) => t.id)

let next = 0
const worker = async () => {
  while (next < ids.length) {
    const id = ids[next++]
    for (;;) {
      if (perSecond !== Infinity) await take()
      const url = `${env.PLATFORM_API_URL}/api/tokens/${id}/revoke?tokenId=${id}`
      const { status } = await call('POST', url, undefined, bearer)
      if (status !== 429) break
      // Knowing the limit, this should not happen; if the clocks disagree by a hair, wait a hair.
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }
}
await Promise.all(Array.from({ length: Number(env.IN_FLIGHT) }, worker))
agent.destroy()
