// @ts-check
// The least any Node.js program can do for the list figure: fetch the list with
// node:http, parse it, mask each token value on stdout, write the tokens (without
// values) to GITHUB_OUTPUT. No inputs, checks, sorting, summary or library. The
// benchmark measures its peak memory beside the action's, with and without TLS loaded.
import { appendFileSync } from 'node:fs'
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)
const http = require('node:http')
const { env } = process
// With LOAD_TLS, also what the action's libraries load whatever the URL: https and tls.
if (env.LOAD_TLS) require('node:https')

/**
 * @param {string} method
 * @param {string} url
 * @param {string | undefined} body
 * @param {Record<string, string>} [headers]
 * @returns {Promise<any>}
 */
function request(method, url, body, headers = {}) {
  return new Promise((resolve, reject) => {
    const options = { method, headers: { 'Content-Type': 'application/json', ...headers } }
    const req = http.request(
      url,
      options,
      (/** @type {import('node:http').IncomingMessage} */ res) => {
        /** @type {Buffer[]} */
        const chunks = []
        res.on('data', (/** @type {Buffer} */ chunk) => chunks.push(chunk))
        res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8'))))
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

const auth = await request(
  'POST',
  `${env.PLATFORM_AUTH_URL}/idp/identity/resources/auth/v2/api-token`,
  JSON.stringify({ clientId: env.CLIENT_ID, secret: env.CLIENT_SECRET }),
)
/** @type {{ tokenValue?: string }[]} */
const tokens = await request('GET', `${env.PLATFORM_API_URL}/api/tokens`, undefined, {
  Authorization: `Bearer ${auth.access_token}`,
})
for (const token of tokens)
  if (token.tokenValue) process.stdout.write(`::add-mask::${token.tokenValue}\n`)
const fields = [
  'id',
  'name',
  'state',
  'mediatorId',
  'projectId',
  'createdBy',
  'createdByEmail',
  'createdAt',
  'revokedAt',
  'revokedBy',
]
appendFileSync(
  env.GITHUB_OUTPUT ?? '/dev/null',
  `tokens<<EOF\n${JSON.stringify(tokens, fields)}\nEOF\n`,
)
