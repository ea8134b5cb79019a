// @ts-check
// The least any Node.js program can do to create a token: node:http, two requests,
// nothing else (no inputs, no checks, no retries, no masking library, no outputs).
// The benchmark runs it beside the action and the curl script to show how much of
// the create figure is Node.js itself. Same environment as curl-create.sh.
import { createRequire } from 'node:module'

// createRequire, as in the bundle: an ESM `import` of node:http costs 25 ms more.
const http = createRequire(import.meta.url)('node:http')

/**
 * @param {string} url
 * @param {string} body
 * @param {Record<string, string>} [headers]
 * @returns {Promise<Record<string, string>>}
 */
function post(url, body, headers = {}) {
  return new Promise((resolve, reject) => {
    const options = { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers } }
    const req = http.request(
      url,
      options,
      (/** @type {import('node:http').IncomingMessage} */ res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (/** @type {string} */ chunk) => (text += chunk))
        res.on('end', () => resolve(JSON.parse(text)))
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

const { env } = process
const auth = await post(
  `${env.PLATFORM_AUTH_URL}/idp/identity/resources/auth/v2/api-token`,
  JSON.stringify({ clientId: env.CLIENT_ID, secret: env.CLIENT_SECRET }),
)
await post(`${env.PLATFORM_API_URL}/api/tokens`, JSON.stringify({ name: env.TOKEN_NAME }), {
  Authorization: `Bearer ${auth.access_token}`,
})
