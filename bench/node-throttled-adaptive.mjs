// @ts-check
// A cleanup by a bare client that does not know the platform's limit in flight before it
// starts, and learns it perfectly from its first 429: node:http, authenticate, list, then
// revoke every old token, starting with IN_FLIGHT at once (the action's concurrency). At
// its first 429 it keeps to LIMIT from then on (the platform's limit, which no real client
// is told: the best that learning can do). A 429 gives its place back and is sent again
// exactly when its Retry-After says (no jitter; 500 ms without one), before the tokens
// never sent. No checks, no masking, no logging. The benchmark runs it beside the action
// under a limit in flight: what a client that must learn the limit cannot beat, since its
// first round over the limit waits out a Retry-After. Environment: as
// node-throttled-floor.mjs, plus LIMIT.
import { createRequire } from 'node:module'

const http = createRequire(import.meta.url)('node:http')
const agent = new http.Agent({ keepAlive: true })
const { env } = process

/**
 * @param {string} method
 * @param {string} url
 * @param {string | undefined} body
 * @param {Record<string, string>} headers
 * @returns {Promise<{ status: number, json: any, retryAfter: string | undefined }>}
 */
function call(method, url, body, headers) {
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
        }),
      )
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
const listed = await call('GET', `${env.PLATFORM_API_URL}/api/tokens`, undefined, bearer)
const cutoff = Date.now() - Number(env.OLDER_THAN_DAYS) * 86_400_000
/** @type {string[]} */
const fresh = listed.json
  .filter((/** @type {any} */ t) => t.state === 'active' && Date.parse(t.createdAt) < cutoff)
  .map((/** @type {any} */ t) => t.id)

let limit = Number(env.IN_FLIGHT)
let inFlight = 0
/** @type {{ id: string, at: number }[]} throttled tokens, in the order their time comes */
const again = []
let left = fresh.length

await new Promise((/** @type {(value?: unknown) => void} */ finish) => {
  const pump = () => {
    if (left === 0) return finish()
    while (inFlight < limit) {
      const now = Date.now()
      const first = again[0]
      const id = first && first.at <= now ? again.shift()?.id : fresh.shift()
      if (id === undefined) {
        if (first) setTimeout(pump, first.at - now)
        return
      }
      inFlight++
      const url = `${env.PLATFORM_API_URL}/api/tokens/${id}/revoke?tokenId=${id}`
      void call('POST', url, undefined, bearer).then(({ status, retryAfter }) => {
        inFlight--
        const now = Date.now()
        if (status === 429) {
          const wait = retryAfter === undefined ? 500 : Number(retryAfter) * 1000
          again.push({ id, at: now + wait })
          again.sort((a, b) => a.at - b.at)
          limit = Math.min(limit, Number(env.LIMIT))
        } else {
          left--
        }
        pump()
      })
    }
  }
  pump()
})
agent.destroy()
