import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join, resolve } from 'node:path'
import { parse } from 'yaml'
import { newTokenFilePath } from '../../src/shared/token-files.js'
import { startFakePlatform, type FakePlatform } from '../support/fake-platform.mjs'

/**
 * The CI check of this action's post step (.github/actions/check-post-step): its post
 * script, run as the runner runs it, against the fake platform, passes only when the
 * token is revoked and its file gone.
 */

const ACTION = resolve('.github/actions/check-post-step')
const NAME = 'ephemeral-smoke-test'
// Named as the action names its token files, so that a renaming there fails this test.
const TOKEN_FILE = basename(newTokenFilePath(tmpdir()))

let platform: FakePlatform
let temp: string
beforeEach(async () => {
  platform = await startFakePlatform()
  temp = mkdtempSync(join(tmpdir(), 'check-post-step-'))
})
afterEach(async () => {
  await platform.close()
  rmSync(temp, { recursive: true, force: true })
})

/**
 * Runs post.mjs with the inputs the CI job gives it. Asynchronously: the fake platform
 * answers from this process.
 */
function run(inputs: Record<string, string> = {}) {
  const connection = platform.connectionInputs()
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    RUNNER_TEMP: temp,
    INPUT_NAME: NAME,
    INPUT_CLIENTID: connection.clientId,
    INPUT_CLIENTSECRET: connection.clientSecret,
    INPUT_BASEURL: connection.baseUrl,
    INPUT_AUTHURL: connection.authUrl,
    ...inputs,
  }
  return new Promise<{ status: number | null; stdout: string; stderr: string }>((done, fail) => {
    const child = spawn(process.execPath, [join(ACTION, 'post.mjs')], { env })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
    child.on('error', fail).on('close', (status) => {
      done({ status, stdout, stderr })
    })
  })
}

const errors = (stdout: string) => stdout.split('\n').filter((line) => line.startsWith('::error::'))

describe('the check of the post step', () => {
  it('passes when every token of the name is revoked and no token file is left', async () => {
    platform.seed({ name: NAME, state: 'revoked' })
    // Other names, other files: not its business.
    platform.seed({ name: 'ci-smoke-test' })
    writeFileSync(join(temp, 'gateway-tokens-0123.json'), '[]')
    writeFileSync(join(temp, `${TOKEN_FILE}.bak`), '')

    const result = await run()

    expect(result).toEqual({
      status: 0,
      stdout: "The action's post step revoked the token and deleted its file.\n",
      stderr: '',
    })
    expect(platform.requestLines()).toEqual([
      'POST /idp/identity/resources/auth/v2/api-token',
      'GET /api/tokens',
    ])
  })

  it('fails, naming the token, when the token is still active', async () => {
    const revoked = platform.seed({ name: NAME, state: 'revoked' })
    const active = platform.seed({ name: NAME })

    const result = await run()

    expect(result.status).toBe(1)
    expect(errors(result.stdout)).toEqual([
      `::error::Token ${active.id} (${NAME}) is active, not revoked.`,
    ])
    expect(result.stdout).not.toContain(revoked.id)
  })

  it('fails, naming the file, when the token file is left', async () => {
    platform.seed({ name: NAME, state: 'revoked' })
    writeFileSync(join(temp, TOKEN_FILE), 'value')

    const result = await run()

    expect(result.status).toBe(1)
    expect(errors(result.stdout)).toEqual([
      `::error::The token file ${TOKEN_FILE} is still in RUNNER_TEMP.`,
    ])
  })

  it('fails when neither was done, with both errors', async () => {
    platform.seed({ name: NAME })
    writeFileSync(join(temp, TOKEN_FILE), 'value')

    const result = await run()

    expect(result.status).toBe(1)
    expect(errors(result.stdout)).toHaveLength(2)
  })

  it('fails when the platform has no token of the name: the create did not run', async () => {
    platform.seed({ name: 'another-name', state: 'revoked' })

    const result = await run()

    expect(result.status).toBe(1)
    expect(errors(result.stdout)).toEqual([`::error::The platform has no token named ${NAME}.`])
  })

  it('fails when it cannot ask the platform, rather than pass', async () => {
    platform.seed({ name: NAME, state: 'revoked' })

    const refused = await run({ INPUT_CLIENTSECRET: 'wrong' })
    expect(refused.status).toBe(1)
    expect(errors(refused.stdout)).toEqual([
      '::error::Could not check the post step: The auth endpoint answered 401',
    ])

    const missing = await run({ INPUT_NAME: '' })
    expect(missing.status).toBe(1)
    expect(errors(missing.stdout)).toEqual([
      '::error::Could not check the post step: Input required and not supplied: name',
    ])
  })
})

describe('its action.yml', () => {
  it('runs post.mjs as a post step whatever the job status, on the runtime of the action', () => {
    const metadata = parse(readFileSync(join(ACTION, 'action.yml'), 'utf8')) as {
      inputs: Record<string, { required?: boolean }>
      runs: Record<string, string>
    }
    const ours = parse(readFileSync('action.yml', 'utf8')) as { runs: { using: string } }
    expect(metadata.runs).toEqual({
      using: ours.runs.using,
      main: 'main.mjs',
      post: 'post.mjs',
      'post-if': 'always()',
    })
    // The inputs post.mjs reads, each required.
    expect(Object.keys(metadata.inputs).sort()).toEqual(
      ['authUrl', 'baseUrl', 'clientId', 'clientSecret', 'name'].sort(),
    )
    expect(Object.values(metadata.inputs).every((input) => input.required === true)).toBe(true)
  })

  it('prints what the platform said as data of one error: no line break, no command of its own', async () => {
    platform.seed({ name: NAME, id: 'id-1\n::add-mask::x\r%0A ##[group]y' })
    const result = await run()
    expect(result.status).toBe(1)
    const lines = result.stdout.split('\n').filter((line) => line !== '')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(/^::error::Token id-1%0A::add-mask::x%0D%250A ## \[group\]y \(/)
  })
})
