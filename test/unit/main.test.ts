import { afterAll, beforeAll, beforeEach, describe, expect, it, jest } from '@jest/globals'
import nock from 'nock'
import * as core from '../fixtures/core.js'

jest.unstable_mockModule('@actions/core', () => core)
const { run } = await import('../../src/main.js')

const API = 'https://api.example.com'
const AUTH = 'https://auth.example.com'
const AUTH_PATH = '/idp/identity/resources/auth/v2/api-token'

function given(inputs: Record<string, string>) {
  for (const key of Object.keys(core.inputs)) core.inputs[key] = ''
  Object.assign(
    core.inputs,
    { clientId: 'id', clientSecret: 'the-client-secret', baseUrl: API, authUrl: AUTH },
    inputs,
  )
}

beforeAll(() => {
  if (!nock.isActive()) nock.activate()
  nock.disableNetConnect()
})
beforeEach(() => {
  jest.clearAllMocks()
  nock.cleanAll()
})
afterAll(() => {
  nock.enableNetConnect()
  nock.restore()
})

describe('run', () => {
  it('masks clientSecret before reading any other input', async () => {
    given({})
    const events: string[] = []
    core.getInput.mockImplementation((name) => {
      events.push(`read ${name}`)
      return core.inputs[name] ?? ''
    })
    core.setSecret.mockImplementation((value) => events.push(`mask ${value}`))
    await run()
    expect(events.slice(0, 3)).toEqual([
      'read clientSecret',
      'mask the-client-secret',
      'read operation',
    ])
    expect(core.setFailed).toHaveBeenCalledWith(
      "Input 'operation' is required: one of create, list, revoke, cleanup.",
    )
  })

  it('fails on a bad input with its message alone, sending nothing', async () => {
    given({ operation: 'revoke', tokenId: 'nope' })
    await run()
    expect(core.setFailed).toHaveBeenCalledWith(
      expect.stringMatching(/^Input 'tokenId' must be a UUID/),
    )
    expect(nock.pendingMocks()).toEqual([])
  })

  it('scrubs the client secret from an input error that quotes it (pasted into the wrong input)', async () => {
    given({ operation: 'revoke', tokenId: 'the-client-secret' })
    await run()
    expect(core.setFailed).toHaveBeenCalledWith(
      'Input \'tokenId\' must be a UUID like 123e4567-e89b-42d3-a456-426614174000; got "***".',
    )
  })

  it('prefixes a platform failure with the operation, and scrubs secrets', async () => {
    given({ operation: 'list' })
    nock(AUTH).post(AUTH_PATH).reply(401, { error: 'bad secret the-client-secret' })
    await run()
    expect(core.setFailed).toHaveBeenCalledWith(
      expect.stringMatching(
        /^list failed: authentication was refused: POST .* answered 401 Unauthorized: bad secret \*\*\*\. Check the clientId/,
      ),
    )
  })

  it('reports a bug as unexpected, with its stack in debug only', async () => {
    given({ operation: 'list' })
    nock(AUTH).post(AUTH_PATH).reply(200, { access_token: 'access-token-1' })
    nock(API).get('/api/tokens').reply(200, [])
    core.summary.write.mockImplementationOnce(() => Promise.resolve(core.summary))
    core.setOutput.mockImplementationOnce(() => {
      throw new TypeError('boom')
    })
    await run()
    expect(core.setFailed).toHaveBeenCalledWith('list failed unexpectedly: boom')
    const stack = core.debug.mock.calls
      .map(([message]) => message)
      .find((m) => m.startsWith('TypeError'))
    expect(stack).toMatch(/^TypeError: boom\n\s+at /)
  })

  it('warns about an ignored input and runs the operation, writing outputs', async () => {
    given({ operation: 'list', tokenId: '123e4567-e89b-42d3-a456-426614174000' })
    nock(AUTH).post(AUTH_PATH).reply(200, { access_token: 'access-token-1' })
    nock(API).get('/api/tokens').reply(200, [])
    await run()
    expect(core.warning).toHaveBeenCalledWith(
      "Input 'tokenId' is not used by operation list; it is ignored.",
    )
    expect(core.setOutput).toHaveBeenCalledWith('count', '0')
    expect(core.setFailed).not.toHaveBeenCalled()
  })
})
