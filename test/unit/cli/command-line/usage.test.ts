// commandLine's usage, inputs and exit codes, and nothing left in its TMPDIR; against nock.
import { describe, expect, it } from '@jest/globals'
import nock from 'nock'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { authOk, ENV, gatewayToken } from '../../../fixtures/command-line.js'
import { CONNECTION } from '../../../fixtures/inputs.js'
import { API, AUTH, AUTH_PATH, record, useNock } from '../../../fixtures/nock-platform.js'

useNock()

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
    const auth = authOk()
    expect(await gatewayToken(['list', '--bogus'])).toMatchObject({ code: 2, stdout: '' })
    const bad = await gatewayToken(['cleanup', '--older-than', 'soon'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/^error: --older-than must be/)
    // Not even the credentials were sent.
    expect(auth.isDone()).toBe(false)
    nock.cleanAll()
  })

  it('says a word it does not know as it was given, even one that reads like an input', async () => {
    const run = await gatewayToken(['list', "Input 'clientSecret'"])
    expect(run).toMatchObject({ code: 2, stdout: '' })
    expect(run.stderr).toBe(
      "error: Input 'clientSecret' is not a flag of gateway-token list. See gateway-token --help.\n",
    )
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

describe('commandLine: nothing left behind', () => {
  it('removes its temp dir and the records a list wrote there, done or failed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-tmp-'))
    const env = { ...ENV, TMPDIR: dir }
    try {
      authOk()
      nock(API).get('/api/tokens').reply(200, [record()])
      expect((await gatewayToken(['list'], { env })).code).toBe(0)
      authOk()
      nock(API).get('/api/tokens').reply(200, [record()])
      // A failure after the records were written: stdout cannot be written.
      const failing = () => {
        throw new Error('EPIPE')
      }
      expect((await gatewayToken(['list', '--json'], { env, out: failing })).code).toBe(1)
      expect(readdirSync(dir)).toEqual([])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
