// commandLine's documents: list, cleanup, audit and revoke with --json (nothing without), scrubbed of what a server echoes, never a runner command; against nock.
import { describe, expect, it } from '@jest/globals'
import nock from 'nock'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { authOk, ENV, gatewayToken, revoked, VALUE } from '../../../fixtures/command-line.js'
import { CONNECTION, TOKEN_ID } from '../../../fixtures/inputs.js'
import { API, AUTH, AUTH_PATH, record, useNock } from '../../../fixtures/nock-platform.js'

useNock()

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

  it('a runner command in a field: escaped where a runner would run it, and read back the same', async () => {
    authOk()
    const name = 'ci ##[add-mask]x ::stop-commands::y'
    listed([record({ name })])
    const run = await gatewayToken(['list', '--json'])
    expect(run.stdout).not.toContain('##[')
    expect((JSON.parse(run.stdout) as { name: string }[])[0]?.name).toBe(name)
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
