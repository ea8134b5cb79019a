// @ts-check
/**
 * `npm run demo`: runs the committed bundle against the repository's fake platform,
 * step by step as one job would (create with a token file and revokeOnExit, list,
 * revoke, cleanup, a mistake, then the post step at the end of the job), and prints what a
 * workflow author sees: the log as the runner shows it (secrets masked), the step outputs
 * and the job summary. No account, no network, no arguments.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startFakePlatform } from './support/fake-platform.mjs'
import { runAction } from './support/runner.mjs'

const DAY = 86_400_000
const platform = await startFakePlatform()
// The job's directory (RUNNER_TEMP): the token file lives there until the post step.
const job = mkdtempSync(join(tmpdir(), 'gateway-token-demo-'))
try {
  // A project that already has some history.
  const old = platform.seed({ name: 'staging-eu', ageMs: 40 * DAY })
  platform.seed({ name: 'staging-eu', ageMs: 12 * DAY, state: 'revoked' })
  platform.seed({ name: 'staging-eu', ageMs: 2 * DAY })
  platform.seed({ name: 'prod-us', ageMs: 3 * DAY })

  console.log(`Fake platform: API ${platform.baseUrl}, auth ${platform.authUrl}\n`)

  const createInputs = {
    operation: 'create',
    name: 'demo-mediator',
    envName: 'MEDIATOR_GATEWAY_TOKEN',
    writeTokenFile: 'true',
    revokeOnExit: 'true',
  }
  const created = await step('Create a token for the mediator, in a file too', createInputs)
  const file = created.outputs.tokenFile ?? ''
  console.log(`A deploy step reads ${file} (exists: ${existsSync(file)}): helm --set-file ...\n`)
  await step('List the active tokens', { operation: 'list', state: 'active' })
  await step('Nightly cleanup, as a dry run: which tokens are older than 30 days', {
    operation: 'cleanup',
    name: 'staging-*',
    olderThan: '30d',
    dryRun: 'true',
  })
  await step('Revoke that old token by its id', { operation: 'revoke', tokenId: old.id })
  await step('A mistake: a token id that is not a UUID', { operation: 'revoke', tokenId: 'latest' })
  await step(
    'End of the job: the post step deletes the token file and revokes the token (revokeOnExit)',
    createInputs,
    { step: 'post', state: created.state },
  )
  console.log(`The token file is gone: ${!existsSync(file)}.`)
  const state = platform.tokens.get(created.outputs.tokenId ?? '')?.state
  console.log(`The token created by the first step is now ${state ?? 'unknown'}.\n`)

  console.log(`The platform received ${platform.requests.length} requests in all:`)
  for (const line of platform.requestLines()) console.log(`  ${line}`)
} finally {
  await platform.close()
  rmSync(job, { recursive: true, force: true })
}

/**
 * Runs one step of the job and prints it the way the workflow run page would show it.
 * @param {string} title
 * @param {Record<string, string>} inputs
 * @param {{ step?: 'main' | 'post', state?: Record<string, string> }} [more]
 */
async function step(title, inputs, more = {}) {
  const run = await runAction({
    inputs: { ...platform.connectionInputs(), ...inputs },
    dir: job,
    ...more,
  })
  const rule = '-'.repeat(78)
  console.log(`${rule}\n${title}\n  with: ${JSON.stringify(inputs)}\n${rule}`)
  console.log(`Log (exit code ${run.exitCode}):`)
  console.log(indent(run.log.trim() || '(empty)'))
  const shown = (/** @type {Record<string, string>} */ values) =>
    Object.entries(values).map(([name, value]) => `${name} = ${maskValue(value, run.masked)}`)
  if (Object.keys(run.outputs).length > 0) {
    console.log('Outputs (as a later step would print them: secrets masked):')
    console.log(indent(shown(run.outputs).join('\n')))
  }
  if (Object.keys(run.env).length > 0) {
    console.log('Environment for later steps:')
    console.log(indent(shown(run.env).join('\n')))
  }
  if (run.summary) {
    console.log('Job summary (Markdown):')
    console.log(indent(run.summary.trim()))
  }
  console.log('')
  return run
}

/**
 * @param {string} value
 * @param {string[]} secrets
 */
function maskValue(value, secrets) {
  let masked = value
  for (const secret of secrets) masked = masked.split(secret).join('***')
  return masked.length > 160 ? `${masked.slice(0, 157)}...` : masked
}

/** @param {string} text */
function indent(text) {
  return text
    .split('\n')
    .map((line) => `    ${line}`)
    .join('\n')
}
