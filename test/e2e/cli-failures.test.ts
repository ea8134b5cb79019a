// gateway-token's committed bundle against the fake platform, when the operation failed (exit 1) and for a bad usage or input (exit 2, nothing sent). What succeeds is in cli.test.ts.
import { describe, expect, it } from '@jest/globals'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  cliOn,
  expectClean,
  expectNoRunnerCommands,
  expectNoSecrets,
  useCliPlatform,
  useTempDirs,
} from './cli-helpers.js'

const { platform } = useCliPlatform()
const tempDir = useTempDirs()
const DAY = 86_400_000

const cli = cliOn(platform)

describe('gateway-token: the operation failed, exit 1', () => {
  it('an audit with findings, and one with a token it cannot date', async () => {
    const old = platform().seed({ name: 'ci', ageMs: 40 * DAY })
    const run = await cli(['audit', '--older-than', '30d', '--json'])
    expect(run.code).toBe(1)
    const found = JSON.parse(run.stdout) as { findings: { id: string }[]; undated: unknown[] }
    expect(found.findings.map((t) => t.id)).toEqual([old.id])
    expect(run.stderr).toMatch(/^error: audit failed: /m)
    expectClean(run, platform())

    platform().tokens.clear()
    const undated = platform().seed({ name: 'ci', createdAt: 'yesterday' })
    const unsure = await cli(['audit', '--older-than', '30d', '--json'])
    expect(unsure.code).toBe(1)
    expect(JSON.parse(unsure.stdout)).toMatchObject({ findings: [], undated: [{ id: undated.id }] })
  })

  it('a cleanup that left a token: the document says which, exit 1', async () => {
    const stuck = platform().seed({ name: 'ci', ageMs: 40 * DAY })
    platform().fail({
      server: 'api',
      method: 'POST',
      path: /\/revoke$/,
      status: 500,
      times: Infinity,
    })
    const run = await cli([
      'cleanup',
      '--older-than',
      '30d',
      '--keep',
      '0',
      '--retries',
      '0',
      '--json',
    ])
    expect(run.code).toBe(1)
    const done = JSON.parse(run.stdout) as Record<string, { id: string }[]>
    expect(done.notRevoked?.map((t) => t.id)).toEqual([stuck.id])
    expect(run.stderr).toMatch(/^error: cleanup failed: /m)
    expect(platform().tokens.get(stuck.id)?.state).toBe('active')
    expectClean(run, platform())
  })

  it('a refused request: credentials the platform refuses, a role that may not create', async () => {
    const refused = await cli(['list'], { PLATFORM_CLIENT_SECRET: 'cs_wrong-secret-0123456789' })
    expect([refused.code, refused.stdout]).toEqual([1, ''])
    expect(refused.stderr).toMatch(/^error: list failed: authentication was refused/)
    // One request, refused, and not one more: no retry of a refusal, no API call without a token.
    expect(platform().requestLines('api')).toEqual([])
    expect(platform().requestLines('auth')).toHaveLength(1)
    expectNoSecrets(refused, ['cs_wrong-secret-0123456789', ...platform().secrets()])
    expectNoRunnerCommands(refused)

    platform().role = 'viewer'
    const create = await cli(['create', '--name', 'demo', '--print-value'])
    expect([create.code, create.stdout]).toEqual([1, ''])
    expect(create.stderr).toMatch(/^error: create failed: .*403/m)
    expect(platform().tokens.size).toBe(0)
    expectClean(create, platform())
  })

  it('a create whose answer was lost: found in the list, handed on; not found, exit 1 naming the time', async () => {
    const lose = () => {
      platform().fail({
        server: 'api',
        method: 'POST',
        path: '/api/tokens',
        commit: true,
        drop: 'reset',
      })
    }
    const dir = tempDir()
    lose()
    const found = await cli([
      'create',
      '--name',
      'demo',
      '--token-file',
      join(dir, 'a'),
      '--retries',
      '1',
    ])
    const [token] = [...platform().tokens.values()]
    expect([found.code, found.stdout]).toEqual([0, `${token?.id ?? ''}\n`])
    expect(found.stderr).toContain('checking the list')
    expect(readFileSync(join(dir, 'a'), 'utf8')).toBe(token?.tokenValue)
    expectClean(found, platform())

    lose()
    platform().fail({ server: 'api', method: 'GET', path: '/api/tokens', status: 503, times: 2 })
    const lost = await cli([
      'create',
      '--name',
      'other',
      '--token-file',
      join(dir, 'b'),
      '--retries',
      '1',
    ])
    expect([lost.code, lost.stdout]).toEqual([1, ''])
    expect(lost.stderr).toMatch(
      /^error: create failed: .*whether token 'other' was created is unknown/m,
    )
    expect(lost.stderr).toMatch(
      /An active token named 'other' created after \S+ would be this step's/,
    )
    expect(existsSync(join(dir, 'b'))).toBe(false)
    expectClean(lost, platform())
  })

  it('a platform that cannot be reached: exit 1, one error line', async () => {
    const run = await cli(['list', '--retries', '0'], { PLATFORM_AUTH_URL: 'http://127.0.0.1:9' })
    expect([run.code, run.stdout]).toEqual([1, ''])
    expect(run.stderr.trim().split('\n')).toHaveLength(1)
    expectClean(run, platform())
  })
})

describe('gateway-token: bad usage or input, exit 2, nothing sent', () => {
  it.each([
    [
      'an unknown command',
      ['frobnicate'],
      /^error: COMMAND must be one of create, list, revoke, cleanup, audit, exec; got "frobnicate"\.$/,
    ],
    [
      'an unknown flag, with a hint',
      ['list', '--older-then', '1d'],
      /^error: --older-then is not a flag of gateway-token list/,
    ],
    [
      'a create with nowhere for the value',
      ['create', '--name', 'x'],
      /needs exactly one of --token-file PATH, --print-value and --k8s-secret NAME \(0 given\)/,
    ],
    [
      'a create with two places',
      ['create', '--name', 'x', '--print-value', '--token-file', 'f'],
      /\(2 given\)/,
    ],
    [
      '--k8s-secret with --json',
      ['create', '--name', 'x', '--k8s-secret', 's', '--json'],
      /--k8s-secret is refused with --json/,
    ],
    [
      'a Kubernetes name Kubernetes refuses',
      ['create', '--name', 'x', '--k8s-secret', 'Bad_Name'],
      /--k8s-secret must be a Kubernetes name/,
    ],
    [
      'an input the action refuses',
      ['cleanup', '--older-than', 'soon'],
      /^error: --older-than must be /,
    ],
    ['a required input left out', ['revoke'], /^error: --token-id is required/],
    ['an audit without its age', ['audit'], /^error: --older-than is required/],
    [
      'a state that is none',
      ['list', '--state', 'gone'],
      /^error: --state must be one of active, revoked, all/,
    ],
    ['a flag without its value', ['list', '--name'], /^error: --name needs a value\.$/],
    [
      'a bad --revoke-on-exit',
      ['exec', '--name', 'x', '--revoke-on-exit', 'sometimes', '--', 'true'],
      /^error: --revoke-on-exit must be one of always, failure, never; got "sometimes"\.$/,
    ],
    ['exec without COMMAND', ['exec', '--name', 'x'], /^error: COMMAND is required after --/],
    [
      '--env and --token-file-env together',
      ['exec', '--name', 'x', '--env', 'A', '--token-file-env', 'B', '--', 'true'],
      /refused together/,
    ],
    [
      "exec's token in a variable of the connection",
      ['exec', '--name', 'x', '--env', 'PLATFORM_CLIENT_SECRET', '--', 'true'],
      /^error: --env must not be PLATFORM_CLIENT_SECRET: gateway-token reads its connection from it\.$/,
    ],
    [
      'a --client-secret-file that is not there',
      ['list', '--client-secret-file', '/nonexistent/secret'],
      /^error: --client-secret-file could not be read/,
    ],
  ])('%s', async (_, args, message) => {
    const run = await cli(args)
    expect([run.code, run.stdout]).toEqual([2, ''])
    expect(run.stderr.trim().split('\n')).toHaveLength(1)
    expect(run.stderr.trim()).toMatch(message)
    expect(platform().requests).toEqual([])
    expectClean(run, platform())
  })

  it('the secret as a flag: refused in either form, and never repeated', async () => {
    const secret = platform().clientSecret
    for (const args of [
      ['list', '--client-secret', secret],
      ['list', `--client-secret=${secret}`],
      ['create', '--name', 'x', '--print-value', '--client-secret', secret],
      // The value of --name: refused all the same, the secret after it never said.
      ['list', '--name', '--client-secret', secret],
    ]) {
      const run = await cli(args)
      expect([run.code, run.stdout]).toEqual([2, ''])
      expect(run.stderr).toMatch(
        /^error: --client-secret is refused: every process can read a command line/,
      )
      expectClean(run, platform())
    }
    expect(platform().requests).toEqual([])
  })

  it('an argument that is a runner command, across lines: said on one line, as no command', async () => {
    const run = await cli(['list', 'ci-*\n::error::forged', '::warning::forged'])
    expect([run.code, run.stdout]).toEqual([2, ''])
    expect(run.stderr.split('\n')).toHaveLength(2)
    expectNoRunnerCommands(run)
    expect(platform().requests).toEqual([])
  })

  it('no client secret anywhere: refused, naming both ways to give it', async () => {
    const run = await cli(['list'], { PLATFORM_CLIENT_SECRET: '' })
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/^error: PLATFORM_CLIENT_SECRET or --client-secret-file is required/)
    expect(platform().requests).toEqual([])
  })
})
