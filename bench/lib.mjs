// @ts-check
// What the benchmark's parts share: timing a process as the runner reads it, a step of the
// action, the environment of the recipes, medians.
import { spawn, spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { node24 } from '../test/support/node24.mjs'
import { prepareStep, ROOT } from '../test/support/runner.mjs'

export const NODE = node24()
export const ENTRY = join(ROOT, 'dist/index.js')

/** @param {number[]} values */
export const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? (sorted[mid] ?? 0) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2
}

/**
 * Runs a command to its end, stdout read through a pipe as the runner reads it (and kept
 * when `keepStdout`, for a case that reports what the step said).
 * @param {string} command
 * @param {string[]} args
 * @param {Record<string, string>} env
 * @param {{ keepStdout?: boolean }} [options]
 * @returns {Promise<{ ms: number, code: number | null, stdout: string }>}
 */
export function timed(command, args, env, { keepStdout = false } = {}) {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint()
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'ignore'] })
    /** @type {Buffer[]} */
    const chunks = []
    if (keepStdout) child.stdout.on('data', (/** @type {Buffer} */ chunk) => chunks.push(chunk))
    else child.stdout.resume()
    child.on('error', reject)
    child.on('close', (code) =>
      resolve({
        ms: Number(process.hrtime.bigint() - started) / 1e6,
        code,
        stdout: Buffer.concat(chunks).toString('utf8'),
      }),
    )
  })
}

/**
 * The time of a run that must succeed: a comparison that failed early would look fast.
 * @param {Promise<{ ms: number, code: number | null }>} run
 * @param {string} what
 */
export async function succeeded(run, what) {
  const { ms, code } = await run
  if (code !== 0) throw new Error(`${what} failed (exit code ${code}): its time would mean nothing`)
  return ms
}

/**
 * Runs the action once as a step.
 * @param {Record<string, string>} inputs
 * @param {string[]} [nodeArgs]
 * @param {Record<string, string>} [extraEnv]
 * @param {{ keepStdout?: boolean }} [options]
 */
export async function runStep(inputs, nodeArgs = [], extraEnv = {}, options = {}) {
  const { env, cleanup } = prepareStep({ inputs })
  try {
    return await timed(NODE, [...nodeArgs, ENTRY], { ...env, ...extraEnv }, options)
  } finally {
    cleanup()
  }
}

/**
 * The environment of the curl scripts and the bare-Node programs: where the platform is
 * and the credentials, as a workflow's own script would have them.
 * @param {import('../test/support/fake-platform.mjs').FakePlatform} platform
 * @param {Record<string, string>} extra
 */
export function recipeEnv(platform, extra) {
  return {
    PATH: process.env.PATH ?? '',
    PLATFORM_AUTH_URL: platform.authUrl,
    PLATFORM_API_URL: platform.baseUrl,
    CLIENT_ID: platform.clientId,
    CLIENT_SECRET: platform.clientSecret,
    ...extra,
  }
}

/** @param {string} tool */
export const available = (tool) => spawnSync('sh', ['-c', `command -v ${tool}`]).status === 0

/** @param {string} what */
export function progress(what) {
  process.stderr.write(`  ${what}...\n`)
}

/**
 * A Markdown table, its columns padded to their widest cell.
 * @param {string[]} head
 * @param {unknown[][]} rows
 */
export function markdownTable(head, rows) {
  const widths = head.map((title, c) =>
    Math.max(title.length, ...rows.map((row) => String(row[c]).length)),
  )
  const line = (/** @type {unknown[]} */ cells) =>
    `| ${cells.map((cell, c) => String(cell).padEnd(widths[c] ?? 0)).join(' | ')} |`
  return [
    line(head),
    `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`,
    ...rows.map(line),
  ].join('\n')
}
