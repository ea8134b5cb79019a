// @ts-check
/**
 * `npm run demo`: runs the committed bundle against the repository's fake platform,
 * step by step as a workflow would (create, list, revoke, cleanup), and prints what a workflow
 * author sees: the log as the runner shows it (secrets masked), the step outputs and
 * the job summary. No account, no network, no arguments.
 */
import { startFakePlatform } from './support/fake-platform.mjs'
import { runAction } from './support/runner.mjs'

const DAY = 86_400_000
const platform = await startFakePlatform()
try {
  // A project that already has some history.
  platform.seed({ name: 'staging-eu', ageMs: 40 * DAY })
  platform.seed({ name: 'staging-eu', ageMs: 12 * DAY, state: 'revoked' })
  platform.seed({ name: 'prod-us', ageMs: 3 * DAY })

  console.log(`Fake platform: API ${platform.baseUrl}, auth ${platform.authUrl}\n`)

  const created = await step('Create a token for the mediator', {
    operation: 'create',
    name: 'demo-mediator',
    envName: 'MEDIATOR_GATEWAY_TOKEN',
  })
  await step('List the active tokens', { operation: 'list', state: 'active' })
  await step('Revoke the token the first step created', {
    operation: 'revoke',
    tokenId: created.outputs.tokenId ?? '',
  })
  await step('Nightly cleanup, as a dry run: which tokens are older than 30 days', {
    operation: 'cleanup',
    olderThan: '30d',
    dryRun: 'true',
  })
  await step('A mistake: a token id that is not a UUID', { operation: 'revoke', tokenId: 'latest' })

  console.log(`The platform received ${platform.requests.length} requests in all:`)
  for (const line of platform.requestLines()) console.log(`  ${line}`)
} finally {
  await platform.close()
}

/**
 * Runs one step and prints it the way the workflow run page would show it.
 * @param {string} title
 * @param {Record<string, string>} inputs
 */
async function step(title, inputs) {
  const run = await runAction({ inputs: { ...platform.connectionInputs(), ...inputs } })
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
