// commandLine: each command as the action's main step on a terminal, against nock: the token where it was asked or a JSON document on stdout, the log on stderr, the exit code.
import { describe, expect, it } from '@jest/globals'
import nock from 'nock'
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { commandLine } from '../../../src/cli/command-line.js'
import { FakeClock } from '../../fixtures/clock.js'
import { CONNECTION, TOKEN_ID } from '../../fixtures/inputs.js'
import { API, AUTH, AUTH_PATH, record, useNock } from '../../fixtures/nock-platform.js'

useNock()

const ENV = {
  PLATFORM_CLIENT_ID: CONNECTION.clientId,
  PLATFORM_CLIENT_SECRET: CONNECTION.clientSecret,
  PLATFORM_API_URL: API,
  PLATFORM_AUTH_URL: AUTH,
}
const VALUE = 'eyJ.gateway.value'
const authOk = () => nock(AUTH).post(AUTH_PATH).reply(200, { access_token: 'eyJ.access' })
const created = (fields = {}) =>
  nock(API)
    .post('/api/tokens')
    .reply(201, record({ name: 'pr-1', ...fields }))
const revoked = () =>
  nock(API)
    .post(`/api/tokens/${TOKEN_ID}/revoke`)
    .query(true)
    .reply(200, record({ state: 'revoked', tokenValue: undefined }))

/** Runs gateway-token with `args`: its exit code, stdout and stderr; `out` in place of stdout. */
async function gatewayToken(
  args: string[],
  { out, env = ENV }: { out?: (text: string) => void; env?: Record<string, string> } = {},
) {
  const [stdout, stderr]: [string[], string[]] = [[], []]
  const streams = {
    out: out ?? ((text: string) => stdout.push(text)),
    err: (text: string) => stderr.push(text),
  }
  const code = await commandLine(args, { env, clock: new FakeClock(), streams })
  return { code, stdout: stdout.join(''), stderr: stderr.join('') }
}

describe('commandLine: create, the token where it was asked, and only there', () => {
  it('--print-value: the value alone on stdout, the log on stderr without it', async () => {
    authOk()
    created()
    const run = await gatewayToken(['create', '--name', 'pr-1', '--print-value'])
    expect(run).toEqual({
      code: 0,
      stdout: `${VALUE}\n`,
      stderr: `Created gateway token 'pr-1' (${TOKEN_ID}).\n`,
    })
  })

  it('--token-file: a new 0600 file with the value, the id alone on stdout', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-'))
    try {
      authOk()
      created()
      const file = join(dir, 'token')
      const run = await gatewayToken(['create', '--name', 'pr-1', '--token-file', file])
      expect(run).toMatchObject({ code: 0, stdout: `${TOKEN_ID}\n` })
      expect(readFileSync(file, 'utf8')).toBe(VALUE)
      expect(statSync(file).mode & 0o777).toBe(0o600)
    } finally {
      rmSync(dir, { recursive: true })
    }
  })

  it('--token-file over a file that is there: never written through, the new token revoked at once, exit 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-'))
    try {
      const file = join(dir, 'token')
      writeFileSync(file, 'someone else’s')
      authOk()
      created()
      revoked()
      const run = await gatewayToken(['create', '--name', 'pr-1', '--token-file', file])
      expect(run.code).toBe(1)
      expect(run.stdout).toBe('')
      expect(readFileSync(file, 'utf8')).toBe('someone else’s')
      expect(run.stderr).toContain(
        `error: create failed: could not write --token-file ${file}: EEXIST`,
      )
      expect(run.stderr).toContain('was not handed on. It was revoked at once.')
      expect(nock.pendingMocks()).toEqual([])
    } finally {
      rmSync(dir, { recursive: true })
    }
  })

  it('stdout that cannot be written: the new token revoked at once, exit 1', async () => {
    authOk()
    created()
    revoked()
    const out = () => {
      throw new Error('EPIPE: broken pipe, write')
    }
    const run = await gatewayToken(['create', '--name', 'pr-1', '--print-value'], { out })
    expect(run.code).toBe(1)
    expect(run.stderr).toContain('could not write stdout: EPIPE: broken pipe, write.')
    expect(run.stderr).toContain('It was revoked at once.')
    expect(run.stderr).not.toContain(VALUE)
  })

  it('--k8s-secret: a Secret manifest holding the value, for kubectl apply -f -', async () => {
    authOk()
    created()
    const args = [
      'create',
      '--name',
      'pr-1',
      '--k8s-secret',
      'mediator-token',
      '--k8s-namespace',
      'prod',
      '--k8s-key',
      'GATEWAY_TOKEN',
    ]
    const { code, stdout } = await gatewayToken(args)
    expect(code).toBe(0)
    expect(stdout).toBe(
      `apiVersion: v1\nkind: Secret\nmetadata:\n  name: mediator-token\n  namespace: prod\ntype: Opaque\ndata:\n  GATEWAY_TOKEN: ${Buffer.from(VALUE).toString('base64')}\n`,
    )
  })

  it('--json: the record, with tokenValue only beside --print-value', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-'))
    try {
      authOk()
      created()
      const withFile = await gatewayToken([
        'create',
        '--name',
        'pr-1',
        '--token-file',
        join(dir, 't'),
        '--json',
      ])
      expect(JSON.parse(withFile.stdout)).toEqual({
        ...record({ name: 'pr-1' }),
        tokenValue: undefined,
      })
      authOk()
      created()
      const withValue = await gatewayToken(['create', '--name', 'pr-1', '--print-value', '--json'])
      expect(JSON.parse(withValue.stdout)).toMatchObject({ id: TOKEN_ID, tokenValue: VALUE })
    } finally {
      rmSync(dir, { recursive: true })
    }
  })
})

describe('commandLine: the other commands, a document with --json and nothing without', () => {
  const listed = (tokens: object[]) => nock(API).get('/api/tokens').reply(200, tokens)
  const old = record({ id: 'old', name: 'ci-1', createdAt: '2020-01-01T00:00:00Z' })

  it('list: the records, newest first, never a value; nothing on stdout without --json', async () => {
    authOk()
    listed([old, record({ name: 'ci-2' })])
    const run = await gatewayToken(['list', '--json'])
    const ids = (JSON.parse(run.stdout) as { id: string }[]).map((t) => t.id)
    expect(ids).toEqual([TOKEN_ID, 'old'])
    expect(run.stdout).not.toContain(VALUE)
    authOk()
    listed([old])
    expect((await gatewayToken(['list'])).stdout).toBe('')
  })

  it('cleanup --dry-run: an object of arrays of records, dryRun true, revoked what would be', async () => {
    authOk()
    listed([old, record({ id: 'new', name: 'ci-1' })])
    const run = await gatewayToken(['cleanup', '--name', 'ci-*', '--dry-run', '--json'])
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout)).toEqual({
      dryRun: true,
      revoked: [expect.objectContaining({ id: 'old' })],
      kept: [expect.objectContaining({ id: 'new' })],
      notRevoked: [],
      left: [],
      unknown: [],
    })
  })

  it('audit: findings and undated, and exit 1 when there are any', async () => {
    authOk()
    listed([old, record({ id: 'odd', createdAt: 'soon' })])
    const run = await gatewayToken(['audit', '--older-than', '90d', '--json'])
    expect(run.code).toBe(1)
    expect(JSON.parse(run.stdout)).toEqual({
      findings: [expect.objectContaining({ id: 'old' })],
      undated: [expect.objectContaining({ id: 'odd' })],
    })
    expect(run.stderr).toMatch(/^error: audit failed: 1 active token is older than 90d/m)
  })

  it('revoke: the record', async () => {
    authOk()
    revoked()
    const run = await gatewayToken(['revoke', '--token-id', TOKEN_ID, '--json'])
    expect(JSON.parse(run.stdout)).toMatchObject({ id: TOKEN_ID, state: 'revoked' })
  })
})

describe('commandLine: what a server echoes into a record never reaches stdout', () => {
  const ACCESS = 'eyJ.access.of-this-run'
  const authEchoed = () => nock(AUTH).post(AUTH_PATH).reply(200, { access_token: ACCESS })
  /** A record whose fields hold the client secret and the access token, as a server echoes them. */
  const echoing = (fields = {}) =>
    record({
      mediatorId: `m ${CONNECTION.clientSecret}`,
      createdBy: Buffer.from(ACCESS).toString('base64'),
      createdByEmail: Buffer.from(CONNECTION.clientSecret).toString('hex'),
      ...fields,
    })
  const shows = (text: string) =>
    [CONNECTION.clientSecret, ACCESS, Buffer.from(ACCESS).toString('base64')].filter((s) =>
      text.includes(s),
    )

  it('list --json: each field scrubbed, the document still JSON, the records themselves kept', async () => {
    authEchoed()
    nock(API)
      .get('/api/tokens')
      .reply(200, [echoing({ name: 'ci-1' })])
    const run = await gatewayToken(['list', '--json'])
    expect(run.code).toBe(0)
    expect(shows(run.stdout)).toEqual([])
    expect(JSON.parse(run.stdout)).toEqual([
      expect.objectContaining({
        id: TOKEN_ID,
        name: 'ci-1',
        mediatorId: 'm ***',
        createdBy: '***',
        createdByEmail: '***',
      }),
    ])
  })

  it('create: the id beside --token-file, and the document, but tokenValue where --print-value asked for it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-'))
    try {
      authEchoed()
      nock(API)
        .post('/api/tokens')
        .reply(201, echoing({ name: 'pr-1', mediatorId: `value ${VALUE}` }))
      const json = await gatewayToken(['create', '--name', 'pr-1', '--print-value', '--json'])
      expect(json.code).toBe(0)
      expect(shows(json.stdout)).toEqual([])
      // The value is where it was asked for, and only there: not in the echo beside it.
      expect(JSON.parse(json.stdout)).toMatchObject({ tokenValue: VALUE, mediatorId: 'value ***' })
      // A client secret that is a UUID, which the platform answers as the new token's id.
      authEchoed()
      nock(API)
        .post('/api/tokens')
        .reply(201, echoing({ name: 'pr-1' }))
      const env = { ...ENV, PLATFORM_CLIENT_SECRET: TOKEN_ID }
      const args = ['create', '--name', 'pr-1', '--token-file', join(dir, 't')]
      expect((await gatewayToken(args, { env })).stdout).toBe('***\n')
    } finally {
      rmSync(dir, { recursive: true })
    }
  })
})

describe('commandLine: usage, input and exit codes', () => {
  it('--help and --version on stdout, exit 0', async () => {
    expect(await gatewayToken(['--help'])).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^Usage: gateway-token/),
    })
    const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }
    expect(await gatewayToken(['--version'])).toEqual({
      code: 0,
      stdout: `${version}\n`,
      stderr: '',
    })
  })

  it('a bad usage or input: exit 2 before any request, naming the flag', async () => {
    expect(await gatewayToken(['list', '--bogus'])).toMatchObject({ code: 2, stdout: '' })
    const bad = await gatewayToken(['cleanup', '--older-than', 'soon'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/^error: --older-than must be/)
    expect(nock.pendingMocks()).toEqual([])
  })

  it('a refused request: exit 1, the step’s failure on stderr, scrubbed', async () => {
    nock(AUTH)
      .post(AUTH_PATH)
      .reply(401, { error: `bad secret ${CONNECTION.clientSecret}` })
    const run = await gatewayToken(['list'])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/^error: list failed: .*401/m)
    expect(run.stderr).not.toContain(CONNECTION.clientSecret)
  })
})
