// commandLine's create: the token where it was asked (--print-value, --token-file, --k8s-secret, --json), and only there; against nock.
import { describe, expect, it } from '@jest/globals'
import nock from 'nock'
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { authOk, created, gatewayToken, revoked, VALUE } from '../../../fixtures/command-line.js'
import { TOKEN_ID } from '../../../fixtures/inputs.js'
import { record, useNock } from '../../../fixtures/nock-platform.js'

useNock()

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

  it('--k8s-secret alone: no namespace (kubectl’s own), the value under the key token', async () => {
    authOk()
    created()
    const { stdout } = await gatewayToken(['create', '--name', 'pr-1', '--k8s-secret', 'gw'])
    expect(stdout).toBe(
      `apiVersion: v1\nkind: Secret\nmetadata:\n  name: gw\ntype: Opaque\ndata:\n  token: ${Buffer.from(VALUE).toString('base64')}\n`,
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
