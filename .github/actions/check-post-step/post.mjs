// @ts-check
/**
 * The post step of check-post-step (action.yml): runs after the post step of the action
 * that created a token with revokeOnExit and writeTokenFile, and fails the job unless
 * - the fake platform lists at least one token named `name`, every one of them revoked;
 * - RUNNER_TEMP holds no token file of the action (`gateway-token-` and 32 hex digits).
 *
 * Plain Node (fetch, node:fs): no npm package, nothing to install. It reads its inputs as
 * the runner passes them (INPUT_NAME, INPUT_CLIENTID, ...), authenticates as the action
 * does (docs/PLATFORM-API.md) and lists the tokens. test/tooling/check-post-step.test.ts runs
 * it against the fake platform, both ways.
 */
import { readdirSync } from 'node:fs'

const AUTH_PATH = '/idp/identity/resources/auth/v2/api-token'
const TOKEN_FILE = /^gateway-token-[0-9a-f]{32}$/

/** @param {string} name */
function input(name) {
  const value = process.env[`INPUT_${name.toUpperCase()}`]?.trim() ?? ''
  if (value === '') throw new Error(`Input required and not supplied: ${name}`)
  return value
}

/** @param {string} url */
const withoutSlash = (url) => url.replace(/\/+$/, '')

/**
 * @param {Response} response
 * @param {string} what
 */
async function json(response, what) {
  if (!response.ok) throw new Error(`${what} answered ${response.status}`)
  return /** @type {unknown} */ (await response.json())
}

/** @returns {Promise<string[]>} what is wrong, nothing when the post step did its work */
async function problems() {
  const name = input('name')
  const found = []

  const auth = await json(
    await fetch(`${withoutSlash(input('authUrl'))}${AUTH_PATH}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ clientId: input('clientId'), secret: input('clientSecret') }),
    }),
    'The auth endpoint',
  )
  const accessToken = /** @type {{ access_token?: unknown }} */ (auth).access_token
  if (typeof accessToken !== 'string') throw new Error('The auth endpoint sent no access_token')
  const list = await json(
    await fetch(`${withoutSlash(input('baseUrl'))}/api/tokens`, {
      headers: { Authorization: `Bearer ${accessToken}` },
    }),
    'The list of tokens',
  )
  if (!Array.isArray(list)) throw new Error('The list of tokens is not a JSON array')
  const named = /** @type {{ id?: unknown, name?: unknown, state?: unknown }[]} */ (list).filter(
    (token) => token.name === name,
  )
  if (named.length === 0) found.push(`The platform has no token named ${name}.`)
  for (const token of named) {
    if (token.state !== 'revoked') {
      found.push(`Token ${String(token.id)} (${name}) is ${String(token.state)}, not revoked.`)
    }
  }

  const temp = process.env.RUNNER_TEMP ?? ''
  if (temp === '') throw new Error('RUNNER_TEMP is not set')
  for (const file of readdirSync(temp).filter((entry) => TOKEN_FILE.test(entry))) {
    found.push(`The token file ${file} is still in RUNNER_TEMP.`)
  }
  return found
}

/** @param {string} line */
const print = (line) => process.stdout.write(`${line}\n`)

/**
 * A workflow command's message, escaped as the runner reads it, with the legacy `##[`
 * form broken (the runner acts on it anywhere in a line): platform text stays data.
 */
const escape = (/** @type {string} */ text) =>
  text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/##\[/g, '## [')

try {
  const found = await problems()
  for (const problem of found) print(`::error::${escape(problem)}`)
  if (found.length > 0) process.exitCode = 1
  else print("The action's post step revoked the token and deleted its file.")
} catch (error) {
  const message = error instanceof Error ? error.message : String(error)
  print(`::error::Could not check the post step: ${escape(message)}`)
  process.exitCode = 1
}
