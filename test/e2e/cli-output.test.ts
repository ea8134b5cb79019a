// gateway-token's committed bundle: where a new token's value goes (--token-file, --k8s-secret), and no secret on stdout or stderr nor runner command on stderr, whatever the platform echoes. The commands and their exit codes are in cli.test.ts and cli-failures.test.ts.
import { describe, expect, it } from '@jest/globals'
import { existsSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import {
  cliOn,
  expectNoRunnerCommands,
  expectClean,
  onlyToken,
  platformEnv,
  runCli,
  statesByName,
  useCliPlatform,
  useTempDirs,
} from './cli-helpers.js'
import { readWorkflowCommands } from '../support/workflow-commands.mjs'

const { platform } = useCliPlatform()
const tempDir = useTempDirs()
const DAY = 86_400_000

const cli = cliOn(platform)

describe('gateway-token create --token-file', () => {
  it('writes a new file of mode 0600 whatever the umask, the id alone on stdout', async () => {
    const dir = tempDir()
    const run = await runCli(['create', '--name', 'demo', '--token-file', 'token'], {
      env: platformEnv(platform()),
      cwd: dir,
      wrap: ['sh', '-c', 'umask 000; exec "$@"', 'sh'],
    })
    const token = onlyToken(platform())
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
    expect(onlyToken(platform()).state).toBe('revoked')
    expectClean(run, platform())
  })

  it('never follows a symbolic link there, even one to a file that is not there', async () => {
    const dir = tempDir()
    const target = join(dir, 'elsewhere')
    symlinkSync(target, join(dir, 'token'))
    const run = await cli(['create', '--name', 'demo', '--token-file', join(dir, 'token')])
    expect([run.code, run.stdout]).toEqual([1, ''])
    expect(existsSync(target)).toBe(false)
    expect(onlyToken(platform()).state).toBe('revoked')
    expectClean(run, platform())
  })
})

describe('gateway-token create --k8s-secret', () => {
  it('prints a Secret manifest, type Opaque, the value under --k8s-key (token by default)', async () => {
    const run = await cli(['create', '--name', 'demo', '--k8s-secret', 'mediator-gateway-token'])
    const token = onlyToken(platform())
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
    expect(keyed.code).toBe(0)
    expect(parse(keyed.stdout)).toMatchObject({
      metadata: { name: 's', namespace: 'mediator' },
      data: { apiKey: Buffer.from(other?.tokenValue ?? '').toString('base64') },
    })
    expectClean(keyed, platform(), { onStdout: [other?.tokenValue ?? ''] })
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

    // Asked for: in tokenValue alone, still not in the field that echoed it.
    const printed = await cli(['create', '--name', 'shown', '--print-value', '--json'])
    const value = [...platform().tokens.values()].find((t) => t.name === 'shown')?.tokenValue
    expect(printed.code).toBe(0)
    expect(JSON.parse(printed.stdout)).toMatchObject({ tokenValue: value, mediatorId: 'echo ***' })
    expectClean(printed, platform(), { onStdout: [value ?? ''] })
  })

  it('an id that is the client secret: never printed as the id', async () => {
    platform().rewriteRecord = (record, answer) =>
      answer === 'create' ? { ...record, id: platform().clientSecret } : record
    const dir = tempDir()
    const run = await cli(['create', '--name', 'demo', '--token-file', join(dir, 'token')])
    // Not a UUID, so an answer it cannot use: the token is found in the list, by its own id.
    expect(run.stderr).toContain(`the new token's id "***" is not a UUID`)
    expect([run.code, run.stdout]).toEqual([0, `${onlyToken(platform()).id}\n`])
    expectClean(run, platform())
  })
})

describe('gateway-token: no runner command on stderr or stdout, whatever the names hold', () => {
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

    // The document too, which a run: step's log shows: escaped where it reads back the same.
    const listed = await cli(['list', '--json'])
    expect(listed.stdout).not.toContain('##[')
    const parsed = JSON.parse(listed.stdout) as { name: string }[]
    expect(parsed.map((token) => token.name).sort()).toEqual([...names].sort())
  })

  it("a reused token's id as a runner command: said on one line, as no command", async () => {
    platform().rewriteRecord = (record, answer) =>
      answer === 'list' ? { ...record, id: '::error::forged\n##[warning]x' } : record
    platform().seed({ name: 'demo' })
    const dir = tempDir()
    const run = await cli([
      'create',
      '--name',
      'demo',
      '--if-exists',
      'reuse',
      '--token-file',
      join(dir, 't'),
    ])
    expect(run.stdout.split('\n')).toHaveLength(2)
    expect(run.code).toBe(0)
    expect(readWorkflowCommands({ stdout: run.stdout, stderr: '' }).commands).toEqual([])
    expectNoRunnerCommands(run)
  })
})
