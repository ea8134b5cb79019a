// The command line's committed bundle (dist/cli/index.js) run as a user's shell runs it, and the checks every test of it makes: no secret on stdout or stderr, no runner command on stderr.
import { afterEach, beforeEach, expect } from '@jest/globals'
import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FakePlatform, TokenRecord } from '../support/fake-platform.mjs'
import { node24 } from '../support/node24.mjs'
import { ROOT } from '../support/runner.mjs'
import { readWorkflowCommands } from '../support/workflow-commands.mjs'
import { useFakePlatform } from './helpers.js'

export const CLI = join(ROOT, 'dist/cli/index.js')

/** What one run of gateway-token did. */
export interface CliRun {
  code: number | null
  signal: NodeJS.Signals | null
  stdout: string
  stderr: string
  /** What was in its TMPDIR when it ended: the command line's own files, none left. */
  leftInTmp: string[]
}

export interface CliOptions {
  /** The whole environment besides PATH, HOME and TMPDIR (a platform's: platformEnv). */
  env?: Record<string, string>
  cwd?: string
  /** Programs to run gateway-token under (`sh -c 'umask 0; exec "$@"' sh`), before node. */
  wrap?: string[]
  /** Sends these signals to the gateway-token process once `when` holds of what it printed. */
  signal?: { send: NodeJS.Signals; when: (printed: { stdout: string; stderr: string }) => boolean }
}

/**
 * New directories, removed after each test of the calling file.
 * @returns a function that makes one
 */
export function useTempDirs(): (prefix?: string) => string {
  let dirs: string[] = []
  afterEach(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
    dirs = []
  })
  return (prefix = 'gateway-token-test-') => {
    const dir = mkdtempSync(join(tmpdir(), prefix))
    dirs.push(dir)
    return dir
  }
}

/**
 * A fresh fake platform around each test (useFakePlatform) that remembers every token value
 * it hands out: among its secrets (platform.secrets()) for the leak checks, and by token id
 * (valueOf), also once the token is revoked, when the platform itself forgets it. A test
 * that sets rewriteRecord itself keeps the first (a record it sends on holds its value).
 */
export function useCliPlatform(): {
  platform: () => FakePlatform
  valueOf: (id: string) => string | undefined
} {
  const platform = useFakePlatform()
  const values = new Map<string, string>()
  beforeEach(() => {
    values.clear()
    platform().rewriteRecord = (record) => {
      if (record.tokenValue !== undefined) values.set(record.id, record.tokenValue)
      return record
    }
  })
  return { platform, valueOf: (id) => values.get(id) }
}

/** The connection to a platform as the command line reads it from the environment. */
export function platformEnv(platform: FakePlatform): Record<string, string> {
  return {
    PLATFORM_CLIENT_ID: platform.clientId,
    PLATFORM_CLIENT_SECRET: platform.clientSecret,
    PLATFORM_API_URL: platform.baseUrl,
    PLATFORM_AUTH_URL: platform.authUrl,
  }
}

/**
 * `gateway-token ARGS` with a platform's connection in the environment, and `env` over it.
 * @returns a function that runs it, as runCli does
 */
export const cliOn =
  (platform: () => FakePlatform) =>
  (args: string[], env: Record<string, string> = {}, cwd?: string): Promise<CliRun> =>
    runCli(args, {
      env: { ...platformEnv(platform()), ...env },
      ...(cwd === undefined ? {} : { cwd }),
    })

/** The only token of a platform. */
export function onlyToken(platform: FakePlatform): TokenRecord {
  const tokens = [...platform.tokens.values()]
  expect(tokens).toHaveLength(1)
  return tokens[0] as TokenRecord
}

/**
 * Runs `gateway-token ARGS` (the committed bundle, on Node 24) with a TMPDIR of its own, as
 * runProgram runs a program.
 */
export async function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliRun> {
  const tmp = mkdtempSync(join(tmpdir(), 'gateway-token-cli-tmp-'))
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: tmp, TMPDIR: tmp, ...options.env }
  const command = [...(options.wrap ?? []), node24(), CLI, ...args]
  const ran = await runProgram(command, env, options.cwd ?? tmp, options.signal)
  const leftInTmp = readdirSync(tmp)
  rmSync(tmp, { recursive: true, force: true })
  return { ...ran, leftInTmp }
}

/**
 * Runs a program to its end, stdin closed, stdout and stderr read through pipes, in a process
 * group of its own: a hung run is killed whole after 25 s, COMMAND with it, which would
 * otherwise hold the pipes open and hang the test. Never synchronously: the fake platform
 * answers from this process.
 */
export function runProgram(
  command: readonly string[],
  env: Record<string, string>,
  cwd: string,
  signal?: CliOptions['signal'],
): Promise<Omit<CliRun, 'leftInTmp'>> {
  const [program = '', ...rest] = command
  return new Promise((resolve, reject) => {
    const child = spawn(program, rest, {
      env,
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    })
    const printed = { stdout: '', stderr: '' }
    let signalled = false
    const look = () => {
      if (signal === undefined || signalled || !signal.when(printed)) return
      signalled = true
      child.kill(signal.send)
    }
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      printed.stdout += chunk
      look()
    })
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      printed.stderr += chunk
      look()
    })
    const guard = setTimeout(() => {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL')
    }, 25_000)
    child.on('error', reject)
    child.on('close', (code, signal) => {
      clearTimeout(guard)
      resolve({ code, signal, ...printed })
    })
  })
}

/** Every way of writing a secret that a log could show: as it is, base64, base64url, hex, and pieces. */
export function forms(secret: string): string[] {
  const bytes = Buffer.from(secret)
  const tail = secret.slice(-36)
  const pieces: string[] = []
  for (let at = 0; at + 12 <= tail.length; at += 6) pieces.push(tail.slice(at, at + 12))
  return [
    secret,
    bytes.toString('base64').replace(/=+$/, ''),
    bytes.toString('base64url'),
    bytes.toString('hex'),
    ...pieces,
  ]
}

/**
 * Checks that no secret, in any form, is on stderr, nor on stdout but for the one value
 * `onStdout` allows there (the token --print-value asked for, or its base64 in a manifest).
 */
export function expectNoSecrets(
  run: CliRun,
  secrets: readonly string[],
  { onStdout = [] }: { onStdout?: readonly string[] } = {},
): void {
  expect(secrets.length).toBeGreaterThan(0)
  for (const secret of secrets) {
    for (const form of forms(secret)) expect(run.stderr).not.toContain(form)
    if (onStdout.includes(secret)) continue
    for (const form of forms(secret)) expect(run.stdout).not.toContain(form)
  }
}

/** Checks that nothing on stderr is a workflow command, in either of the runner's syntaxes. */
export function expectNoRunnerCommands(run: CliRun): void {
  expect(readWorkflowCommands({ stdout: '', stderr: run.stderr }).commands).toEqual([])
  expect(run.stderr).not.toMatch(/^\s*::|##\[/m)
}

/** The checks of every run: no secret of the platform's, no runner command, no file left in TMPDIR. */
export function expectClean(
  run: CliRun,
  platform: FakePlatform,
  allowed: { onStdout?: readonly string[] } = {},
): void {
  expectNoSecrets(run, platform.secrets(), allowed)
  expectNoRunnerCommands(run)
  expect(run.leftInTmp).toEqual([])
  // No stack trace, whatever went wrong.
  expect(run.stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m)
}

/** The platform's tokens by name, with their states: what a run left behind. */
export function statesByName(platform: FakePlatform): Record<string, string[]> {
  const states: Record<string, string[]> = {}
  for (const token of platform.tokens.values()) (states[token.name] ??= []).push(token.state)
  return states
}
