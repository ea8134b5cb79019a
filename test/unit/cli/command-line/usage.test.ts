// commandLine's usage, inputs and exit codes; against nock. What it leaves in TMPDIR: the end-to-end tests (cli-helpers.ts).
import { describe, expect, it } from '@jest/globals'
import nock from 'nock'
import { readFileSync } from 'node:fs'
import { gatewayToken } from '../../../fixtures/command-line.js'
import { CONNECTION } from '../../../fixtures/inputs.js'
import { AUTH, AUTH_PATH, useNock } from '../../../fixtures/nock-platform.js'

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
