// gateway-token, the committed bundle, against the fake platform: every exit code, the token where it was asked and only there, the --json documents, and no secret or runner command whatever the platform sends.
import { describe, expect, it } from '@jest/globals'
import { existsSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import type { TokenRecord } from '../support/fake-platform.mjs'
import { ROOT } from '../support/runner.mjs'
import {
  expectClean,
  expectNoRunnerCommands,
  expectNoSecrets,
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

/** gateway-token ARGS with the platform's connection in the environment, and `env` over it. */
const cli = (args: string[], env: Record<string, string> = {}, cwd?: string) =>
  runCli(args, {
    env: { ...platformEnv(platform()), ...env },
    ...(cwd === undefined ? {} : { cwd }),
  })

/** The only token of the platform. */
function onlyToken(): TokenRecord {
  const tokens = [...platform().tokens.values()]
  expect(tokens).toHaveLength(1)
  return tokens[0] as TokenRecord
}

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
    const token = onlyToken()
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
    const token = onlyToken()
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
      /--revoke-on-exit must be always, failure or never/,
    ],
    ['exec without COMMAND', ['exec', '--name', 'x'], /^error: COMMAND is required after --/],
    [
      '--env and --token-file-env together',
      ['exec', '--name', 'x', '--env', 'A', '--token-file-env', 'B', '--', 'true'],
      /refused together/,
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

  it('no client secret anywhere: refused, naming both ways to give it', async () => {
    const run = await cli(['list'], { PLATFORM_CLIENT_SECRET: '' })
    expect(run.code).toBe(2)
    expect(run.stderr).toMatch(/^error: PLATFORM_CLIENT_SECRET or --client-secret-file is required/)
    expect(platform().requests).toEqual([])
  })
})

describe('gateway-token create --token-file', () => {
  it('writes a new file of mode 0600 whatever the umask, the id alone on stdout', async () => {
    const dir = tempDir()
    const run = await runCli(['create', '--name', 'demo', '--token-file', 'token'], {
      env: platformEnv(platform()),
      cwd: dir,
      wrap: ['sh', '-c', 'umask 000; exec "$@"', 'sh'],
    })
    const token = onlyToken()
    expect(run.code).toBe(0)
    expect(run.stdout).toBe(`${token.id}\n`)
    expect(readFileSync(join(dir, 'token'), 'utf8')).toBe(token.tokenValue)
    expect(statSync(join(dir, 'token')).mode & 0o777).toBe(0o600)
    expectClean(run, platform())
  })

  it('never writes over a file that is there: left as it was, the new token revoked at once, exit 1', async () => {
    const dir = tempDir()
    const file = join(dir, 'token')
    writeFileSync(file, 'keep me\n', { mode: 0o644 })
    const run = await cli(['create', '--name', 'demo', '--token-file', file])
    expect([run.code, run.stdout]).toEqual([1, ''])
    expect(readFileSync(file, 'utf8')).toBe('keep me\n')
    expect(statSync(file).mode & 0o777).toBe(0o644)
    expect(run.stderr).toContain('It was revoked at once.')
    expect(onlyToken().state).toBe('revoked')
    expectClean(run, platform())
  })

  it('never follows a symbolic link there, even one to a file that is not there', async () => {
    const dir = tempDir()
    const target = join(dir, 'elsewhere')
    symlinkSync(target, join(dir, 'token'))
    const run = await cli(['create', '--name', 'demo', '--token-file', join(dir, 'token')])
    expect([run.code, run.stdout]).toEqual([1, ''])
    expect(existsSync(target)).toBe(false)
    expect(onlyToken().state).toBe('revoked')
    expectClean(run, platform())
  })
})

describe('gateway-token create --k8s-secret', () => {
  it('prints a Secret manifest, type Opaque, the value under --k8s-key (token by default)', async () => {
    const run = await cli(['create', '--name', 'demo', '--k8s-secret', 'mediator-gateway-token'])
    const token = onlyToken()
    expect(run.code).toBe(0)
    expect(parse(run.stdout)).toEqual({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'mediator-gateway-token' },
      type: 'Opaque',
      data: { token: Buffer.from(token.tokenValue ?? '').toString('base64') },
    })
    expectClean(run, platform(), { onStdout: [token.tokenValue ?? ''] })

    const keyed = await cli([
      'create',
      '--name',
      'other',
      '--k8s-secret',
      's',
      '--k8s-key',
      'apiKey',
      '--k8s-namespace',
      'mediator',
    ])
    const other = [...platform().tokens.values()].find((t) => t.name === 'other')
    expect(parse(keyed.stdout)).toMatchObject({
      metadata: { name: 's', namespace: 'mediator' },
      data: { apiKey: Buffer.from(other?.tokenValue ?? '').toString('base64') },
    })
  })
})

describe('gateway-token: no secret on stdout or stderr, whatever the platform echoes', () => {
  /** Every way the tests write a secret: as it is, base64, hex, JSON escapes, %-escapes. */
  const encodings: [string, (s: string) => string][] = [
    ['as it is', (s) => s],
    ['base64', (s) => Buffer.from(s).toString('base64')],
    ['base64url', (s) => Buffer.from(s).toString('base64url')],
    ['hex', (s) => Buffer.from(s).toString('hex')],
    [
      'JSON \\u escapes',
      (s) => Array.from(s, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
    ],
    [
      '%-escapes',
      (s) => Array.from(Buffer.from(s), (b) => `%${b.toString(16).padStart(2, '0')}`).join(''),
    ],
  ]

  it.each(encodings)('the client secret echoed by the auth service %s', async (_, encode) => {
    platform().fail({
      server: 'auth',
      status: 401,
      statusText: `bad ${platform().clientSecret}`,
      echo: (request) => {
        const { secret } = JSON.parse(request.body) as { secret: string }
        return JSON.stringify({ errors: [`bad credentials for ${encode(secret)}`] })
      },
    })
    const run = await cli(['list'])
    expect([run.code, run.stdout]).toEqual([1, ''])
    expect(run.stderr).toContain('bad credentials for ***')
    expectClean(run, platform())
  })

  it.each(encodings)(
    'the access token echoed by the API %s, with every header',
    async (_, encode) => {
      platform().fail({
        server: 'api',
        status: 400,
        echo: (request) =>
          JSON.stringify({
            errors: [
              `refused ${encode(String(request.headers.authorization))} ${JSON.stringify(request.headers)}`,
            ],
          }),
      })
      const run = await cli(['create', '--name', 'demo', '--print-value', '--retries', '0'])
      expect([run.code, run.stdout]).toEqual([1, ''])
      expect(run.stderr).toMatch(/^error: create failed: /m)
      expectClean(run, platform())
    },
  )

  /** Records whose every text field holds what the request carried: the secret, the access token. */
  function echoSecretsInRecords() {
    // The access token of the run: the last one the auth service handed out.
    let accessToken = ''
    const access = () => accessToken
    platform().rewriteAuth = (payload) => {
      const { access_token } = payload as { access_token?: string }
      if (access_token !== undefined) accessToken = access_token
      return payload
    }
    // A create's answer must name the token it made: the name is echoed into elsewhere.
    platform().rewriteRecord = (record, answer) => ({
      ...record,
      name: answer === 'create' ? record.name : `${record.name} ${platform().clientSecret}`,
      mediatorId: Buffer.from(platform().clientSecret).toString('base64'),
      createdBy: access(),
      createdByEmail: Buffer.from(access()).toString('hex'),
    })
  }

  it('secrets echoed in the records of a list, a cleanup, an audit: not in any --json document', async () => {
    platform().seed({ name: 'ci', ageMs: 40 * DAY })
    platform().seed({ name: 'ci', ageMs: 35 * DAY })
    echoSecretsInRecords()
    for (const args of [
      ['list', '--json'],
      ['audit', '--older-than', '30d', '--json'],
      ['cleanup', '--older-than', '30d', '--keep', '1', '--dry-run', '--json'],
      ['cleanup', '--older-than', '30d', '--keep', '0', '--json'],
    ]) {
      const run = await cli(args)
      expect([args, run.code]).toEqual([args, args[0] === 'audit' ? 1 : 0])
      // Still one JSON document: the secret is gone from inside its strings.
      expect(() => JSON.parse(run.stdout) as unknown).not.toThrow()
      expect(run.stdout).toContain('***')
      expectClean(run, platform())
    }
  })

  it('secrets echoed in the record of a create or a revoke: not in the document, not beside the id', async () => {
    echoSecretsInRecords()
    const dir = tempDir()
    const json = await cli(['create', '--name', 'demo', '--token-file', join(dir, 'a'), '--json'])
    expect(json.code).toBe(0)
    expect(JSON.parse(json.stdout)).toMatchObject({ mediatorId: '***', createdBy: '***' })
    expectClean(json, platform())

    const printed = await cli(['create', '--name', 'other', '--print-value', '--json'])
    const value = [...platform().tokens.values()].find((t) => t.name === 'other')?.tokenValue ?? ''
    expect(JSON.parse(printed.stdout)).toMatchObject({ tokenValue: value, createdBy: '***' })
    expectClean(printed, platform(), { onStdout: [value] })

    const id = [...platform().tokens.values()][0]?.id ?? ''
    const revoked = await cli(['revoke', '--token-id', id, '--json'])
    expect(revoked.code).toBe(0)
    expect(JSON.parse(revoked.stdout)).toMatchObject({ id, state: 'revoked' })
    expectClean(revoked, platform())
  })

  it("the created token's value echoed in its own record: only where --print-value asked for it", async () => {
    platform().rewriteRecord = (record, answer) =>
      answer === 'create' ? { ...record, mediatorId: `echo ${record.tokenValue ?? ''}` } : record
    const dir = tempDir()
    const run = await cli([
      'create',
      '--name',
      'demo',
      '--token-file',
      join(dir, 'token'),
      '--json',
    ])
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout)).toMatchObject({ mediatorId: 'echo ***' })
    expectClean(run, platform())
  })

  it('an id that is the client secret: never printed as the id', async () => {
    platform().rewriteRecord = (record, answer) =>
      answer === 'create' ? { ...record, id: platform().clientSecret } : record
    const dir = tempDir()
    const run = await cli(['create', '--name', 'demo', '--token-file', join(dir, 'token')])
    expectClean(run, platform())
  })
})

describe('gateway-token: no runner command on stderr, whatever the names hold', () => {
  it('a cleanup of tokens named as runner commands, in both syntaxes', async () => {
    const names = [
      '::add-mask::x',
      '##[set-output name=a]b',
      'ci ##[error]x',
      'ci\n::stop-commands::y',
      '\u200b::warning::z',
    ]
    for (const name of names) platform().seed({ name, ageMs: 40 * DAY })
    const run = await cli(['cleanup', '--older-than', '30d', '--keep', '0'])
    expect(run.code).toBe(0)
    expect(Object.values(statesByName(platform())).flat()).toEqual(names.map(() => 'revoked'))
    expect(run.stderr).toContain("Revoked gateway token 'ci ## [error]x' (")
    expectClean(run, platform())
  })
})
