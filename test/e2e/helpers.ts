import { afterEach, beforeEach, expect } from '@jest/globals'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { FakePlatform, startFakePlatform } from '../support/fake-platform.mjs'
import { runAction, type ActionRun, type RunOptions } from '../support/runner.mjs'

// The request lines the fake platform records (requestLines()), for exact assertions.
export const AUTH = 'POST /idp/identity/resources/auth/v2/api-token'
export const LIST = 'GET /api/tokens'
export const CREATE = 'POST /api/tokens'
export const revokeLine = (id: string) => `POST /api/tokens/${id}/revoke?tokenId=${id}`

/**
 * Starts a fresh fake platform around each test of the calling file.
 * @returns a getter: the platform of the running test.
 */
export function useFakePlatform(): () => FakePlatform {
  let platform: FakePlatform | undefined
  beforeEach(async () => {
    platform = await startFakePlatform()
  })
  afterEach(async () => {
    await platform?.close()
    platform = undefined
  })
  return () => {
    if (platform === undefined) throw new Error('no fake platform outside a test')
    return platform
  }
}

/**
 * New job directories (RUNNER_TEMP, shared by the main and the post step as on a runner),
 * removed after each test of the calling file, so that a test can see the files a step
 * left there.
 * @returns a function that makes one
 */
export function useJobDirs(): () => string {
  let dirs: string[] = []
  afterEach(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
    dirs = []
  })
  return () => {
    const dir = mkdtempSync(join(tmpdir(), 'gateway-token-job-'))
    dirs.push(dir)
    return dir
  }
}

/** Runs the committed bundle against the platform, with valid credentials unless overridden. */
export function runAgainst(
  platform: FakePlatform,
  inputs: Record<string, string>,
  options: RunOptions = {},
): Promise<ActionRun> {
  return runAction({ ...options, inputs: { ...platform.connectionInputs(), ...inputs } })
}

/**
 * Checks that no secret reached the log, stderr, the summary or an output in clear.
 * A secret may appear in stdout only in its own `::add-mask::` line, and that line
 * must come before any other mention of it; `allowedOutputs` and `allowedEnv` name
 * where a token value is supposed to go.
 */
export function expectNoLeaks(
  run: ActionRun,
  secrets: readonly string[],
  {
    allowedOutputs = [],
    allowedEnv = [],
  }: { allowedOutputs?: string[]; allowedEnv?: string[] } = {},
): void {
  const lines = run.stdout.split('\n')
  const outputs = Object.entries(run.outputs).filter(([name]) => !allowedOutputs.includes(name))
  const env = Object.entries(run.env).filter(([name]) => !allowedEnv.includes(name))
  const unmasked = [
    ...lines.filter((line) => !line.startsWith('::add-mask::')),
    run.stderr,
    run.summary,
    ...outputs.map(([, value]) => value),
    ...env.map(([, value]) => value),
  ].join('\n')
  expect(secrets.length).toBeGreaterThan(0)
  for (const secret of secrets) {
    const mentions = lines.filter((l) => l.includes(secret))
    for (const line of mentions) expect(line).toBe(`::add-mask::${secret}`)
    // And that add-mask was carried out: not ignored after a stop-commands, say.
    if (mentions.length > 0) expect(run.masked).toContain(secret)
    expect(unmasked).not.toContain(secret)
    // A piece of a secret (cut short in a message) is not masked by the runner either.
    for (const piece of pieces(secret)) expect(unmasked).not.toContain(piece)
  }
}

/** 12-character pieces of the random end of a secret (JWT-like ones share their header). */
function pieces(secret: string): string[] {
  const tail = secret.slice(-36)
  const found: string[] = []
  for (let at = 0; at + 12 <= tail.length; at += 6) found.push(tail.slice(at, at + 12))
  return found
}

/** The only commands this action ever gives the runner, all in the `::` syntax. */
const OWN_COMMANDS = ['add-mask', 'debug', 'notice', 'warning', 'error']

/**
 * Checks that every workflow command the runner would carry out is one the action meant
 * to give: no command in the legacy `##[` syntax, none other than OWN_COMMANDS, none with
 * properties (a file or a line that text from outside could set), and nothing masked but
 * these secrets. Text from outside that reached the log as a command fails this.
 */
export function expectOwnCommandsOnly(run: ActionRun, secrets: readonly string[]): void {
  expect(run.commands.length).toBeGreaterThan(0)
  expect(run.commands.filter((command) => command.syntax === 'legacy')).toEqual([])
  const strange = run.commands.filter(
    ({ command, properties }) =>
      !OWN_COMMANDS.includes(command) || Object.keys(properties).length > 0,
  )
  expect(strange).toEqual([])
  // The client secret at least is always masked.
  expect(run.masked.length).toBeGreaterThan(0)
  for (const value of run.masked) expect(secrets).toContain(value)
}

/** A failed step shows one error line and no stack trace. */
export function expectCleanFailure(run: ActionRun): string {
  expect(run.exitCode).toBe(1)
  expect(run.errors).toHaveLength(1)
  expect(run.stdout + run.stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m)
  return run.errors[0] ?? ''
}
