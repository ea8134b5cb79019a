// gateway-token's committed bundle against the fake platform, done (exit 0): --help and --version, each command's output and --json document, the connection from the environment and flags. The failures are in cli-failures.test.ts, where a value goes and the leak checks in cli-output.test.ts.
import { describe, expect, it } from '@jest/globals'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { TokenRecord } from '../support/fake-platform.mjs'
import { ROOT } from '../support/runner.mjs'
import {
  cliOn,
  expectClean,
  onlyToken,
  platformEnv,
  runCli,
  statesByName,
  useCliPlatform,
  useTempDirs,
} from './cli-helpers.js'
import { AUTH, CREATE, LIST, revokeLine } from './helpers.js'

const { platform } = useCliPlatform()
const tempDir = useTempDirs()
const DAY = 86_400_000
const VERSION = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }
).version

const cli = cliOn(platform)

describe('gateway-token: done, exit 0', () => {
  it('--help: the usage on stdout, every command in it; --version: the version', async () => {
    const help = await cli(['--help'])
    expect([help.code, help.stderr]).toEqual([0, ''])
    for (const command of ['create', 'list', 'revoke', 'cleanup', 'audit', 'exec'])
      expect(help.stdout).toContain(`\n  ${command} `)
    expect(help.stdout).toMatch(/^Usage: gateway-token COMMAND/)
    const version = await cli(['--version'])
    expect(version).toMatchObject({ code: 0, stdout: `${VERSION}\n`, stderr: '' })
    expect(platform().requests).toEqual([])
  })

  it('create --print-value: the value alone on stdout, one line, for $(...)', async () => {
    const run = await cli(['create', '--name', 'demo', '--print-value'])
    const token = onlyToken(platform())
    expect(run.code).toBe(0)
    expect(run.stdout).toBe(`${token.tokenValue ?? ''}\n`)
    expect(run.stderr).toBe(`Created gateway token 'demo' (${token.id}).\n`)
    expect(platform().requestLines()).toEqual([AUTH, CREATE])
    expectClean(run, platform(), { onStdout: [token.tokenValue ?? ''] })
  })

  it('create --json: the record without its value; with --print-value, with it', async () => {
    const run = await cli(
      ['create', '--name', 'demo', '--token-file', 'token', '--json'],
      {},
      tempDir(),
    )
    const token = onlyToken(platform())
    const { tokenValue, ...rest } = token
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout)).toEqual(rest)
    expectClean(run, platform())

    const printed = await cli(['create', '--name', 'other', '--print-value', '--json'])
    const other = [...platform().tokens.values()].find((t) => t.name === 'other')
    expect(printed.code).toBe(0)
    expect(JSON.parse(printed.stdout)).toEqual(other)
    expect(printed.stdout.split('\n')).toHaveLength(2)
    expectClean(printed, platform(), { onStdout: [other?.tokenValue ?? ''] })
    expect(tokenValue).toBeDefined()
  })

  it('list --json: an array of records, never a value; list alone prints nothing on stdout', async () => {
    const older = platform().seed({ name: 'ci-1', ageMs: 2 * DAY })
    const newer = platform().seed({ name: 'ci-2', ageMs: DAY })
    const gone = platform().seed({ name: 'ci-3', state: 'revoked' })
    const run = await cli(['list', '--name', 'ci-*', '--state', 'all', '--json'])
    expect(run.code).toBe(0)
    const listed = JSON.parse(run.stdout) as TokenRecord[]
    expect(listed.map((t) => t.id).sort()).toEqual([older.id, newer.id, gone.id].sort())
    for (const token of listed) expect(token).not.toHaveProperty('tokenValue')
    expect(run.stderr).toBe('3 of 3 tokens match.\n')
    expectClean(run, platform())

    const plain = await cli(['list'])
    expect([plain.code, plain.stdout]).toEqual([0, ''])
    expectClean(plain, platform())
  })

  it('revoke --json: the record, revoked; a token revoked already is no failure', async () => {
    const token = platform().seed({ name: 'old' })
    const run = await cli(['revoke', '--token-id', token.id, '--json'])
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout)).toMatchObject({ id: token.id, state: 'revoked' })
    expect(platform().requestLines().slice(-1)).toEqual([revokeLine(token.id)])
    const again = await cli(['revoke', '--token-id', token.id])
    expect([again.code, again.stdout]).toEqual([0, ''])
    expect(again.stderr).toContain('notice: The gateway token')
    expectClean(run, platform())
    expectClean(again, platform())
  })

  it('cleanup --json: the arrays revoked, kept, notRevoked, left, unknown; --dry-run says so and revokes nothing', async () => {
    const old = platform().seed({ name: 'ci', ageMs: 40 * DAY })
    const newest = platform().seed({ name: 'ci', ageMs: 35 * DAY })
    const young = platform().seed({ name: 'ci', ageMs: DAY })
    const dry = await cli([
      'cleanup',
      '--name',
      'ci',
      '--older-than',
      '30d',
      '--keep',
      '2',
      '--dry-run',
      '--json',
    ])
    expect(dry.code).toBe(0)
    const planned = JSON.parse(dry.stdout) as Record<string, { id: string }[] | boolean>
    expect(Object.keys(planned)).toEqual([
      'dryRun',
      'revoked',
      'kept',
      'notRevoked',
      'left',
      'unknown',
    ])
    expect(planned.dryRun).toBe(true)
    expect(planned.revoked).toEqual([expect.objectContaining({ id: old.id })])
    // The newest two of the name are kept: the young one, and the old one after it.
    expect(planned.kept).toEqual([expect.objectContaining({ id: newest.id })])
    expect(statesByName(platform())).toEqual({ ci: ['active', 'active', 'active'] })

    const run = await cli([
      'cleanup',
      '--name',
      'ci',
      '--older-than',
      '30d',
      '--keep',
      '2',
      '--json',
    ])
    expect(run.code).toBe(0)
    const done = JSON.parse(run.stdout) as Record<string, { id: string }[]>
    expect(Object.keys(done)).toEqual(['revoked', 'kept', 'notRevoked', 'left', 'unknown'])
    expect(done.revoked?.map((t) => t.id)).toEqual([old.id])
    expect(platform().tokens.get(old.id)?.state).toBe('revoked')
    expect(platform().tokens.get(newest.id)?.state).toBe('active')
    expect(platform().tokens.get(young.id)?.state).toBe('active')
    expectClean(dry, platform())
    expectClean(run, platform())
  })

  it('audit --json with nothing to find: findings and undated, both empty, exit 0', async () => {
    platform().seed({ name: 'ci', ageMs: DAY })
    const run = await cli(['audit', '--older-than', '30d', '--json'])
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout)).toEqual({ findings: [], undated: [] })
    expectClean(run, platform())
  })

  it('--client-secret-file: the secret from a file, one line break dropped, over the variable', async () => {
    const dir = tempDir()
    const file = join(dir, 'secret')
    writeFileSync(file, `${platform().clientSecret}\n`, { mode: 0o600 })
    const run = await cli(['list', '--client-secret-file', file], {
      PLATFORM_CLIENT_SECRET: 'not-the-secret',
    })
    expect(run.code).toBe(0)
    expectClean(run, platform())
  })

  it('the connection from flags over the environment: --base-url, --auth-url, --client-id', async () => {
    const { baseUrl, authUrl, clientId } = platform()
    const run = await runCli(
      ['list', '--base-url', baseUrl, '--auth-url', authUrl, '--client-id', clientId],
      {
        env: {
          ...platformEnv(platform()),
          PLATFORM_API_URL: 'http://127.0.0.1:9',
          PLATFORM_AUTH_URL: 'http://127.0.0.1:9',
          PLATFORM_CLIENT_ID: 'someone-else',
        },
      },
    )
    expect(run.code).toBe(0)
    expect(platform().requestLines()).toEqual([AUTH, LIST])
  })
})
