// A `run:` step run by bash with the fake tools, and the StepRun records of every step.
// @ts-check
import { spawn } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseCommandFile, prepareStep } from '../runner.mjs'
import { readWorkflowCommands } from '../workflow-commands.mjs'

/** @typedef {import('./types.mjs').StepRun} StepRun */
/** @typedef {import('./types.mjs').WorkflowOptions} WorkflowOptions */

/**
 * A `run:` step: the script in a file, run by bash as the runner runs it, in the job's
 * directory with the fake tools first on PATH; GITHUB_OUTPUT and GITHUB_ENV read back.
 * @param {string} script
 * @param {Record<string, string>} env
 * @param {{ jobDir: string, tools: ReturnType<typeof import('../fake-tools.mjs').installFakeTools>, options: WorkflowOptions, masked: string[] }} where
 * @returns {Promise<StepRun & { env?: Record<string, string> }>}
 */
export async function runScript(script, env, { jobDir, tools, options, masked }) {
  const step = prepareStep({ dir: jobDir })
  const file = join(jobDir, `step-${Math.random().toString(36).slice(2)}.sh`)
  writeFileSync(file, script)
  const { code, stdout, stderr } = await spawnBash(file, jobDir, {
    ...step.env,
    ...tools.env,
    ...env,
    PATH: `${tools.bin}:${process.env.PATH ?? ''}`,
    FAKE_TOOLS_FAIL: options.fail ?? '',
  })
  const commands = readWorkflowCommands({ stdout, stderr })
  masked.push(...commands.masked)
  const secrets = [...masked, ...Object.values(options.secrets ?? {})].filter((v) => v !== '')
  const log = maskAll(stdout + stderr, secrets)
  const result = stepRun(
    code === 0,
    parseCommandFile(readFileSync(step.files.GITHUB_OUTPUT, 'utf8')),
    log,
    stdout + stderr,
    {},
  )
  return {
    ...result,
    kind: 'run',
    env: parseCommandFile(readFileSync(step.files.GITHUB_ENV, 'utf8')),
  }
}

/**
 * @param {string} file
 * @param {string} cwd
 * @param {Record<string, string>} env
 * @returns {Promise<{ code: number | null, stdout: string, stderr: string }>}
 */
function spawnBash(file, cwd, env) {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', file], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk))
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}

/**
 * @param {boolean} ok
 * @param {Record<string, string>} outputs
 * @param {string} log
 * @param {string} raw
 * @param {Record<string, string>} inputs
 * @returns {StepRun}
 */
export function stepRun(ok, outputs, log, raw, inputs) {
  const outcome = ok ? 'success' : 'failure'
  return { job: '', name: '', stage: 'main', kind: 'action', outcome, outputs, log, raw, inputs }
}

/**
 * @param {string} job
 * @param {string} name
 * @returns {StepRun}
 */
export function skipped(job, name) {
  return { ...stepRun(true, {}, '', '', {}), job, name, outcome: 'skipped', kind: 'other' }
}

/**
 * What the job log shows: every registered secret as `***`.
 * @param {string} text
 * @param {string[]} secrets
 */
function maskAll(text, secrets) {
  let masked = text
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    masked = masked.split(secret).join('***')
  }
  return masked
}
