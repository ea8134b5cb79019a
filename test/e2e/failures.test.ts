import { describe, expect, it } from '@jest/globals'
import { runAction } from '../support/runner.mjs'
import { expectCleanFailure, expectNoLeaks, runAgainst, useFakePlatform } from './helpers.js'

const platform = useFakePlatform()

describe('failures (the committed bundle on Node 24)', () => {
  it('with no inputs at all, fails on the missing operation', async () => {
    const run = await runAction()
    expect(expectCleanFailure(run)).toBe(
      "Input 'operation' is required: one of create, list, revoke, cleanup, audit.",
    )
  })

  it.each<[string, Record<string, string>, RegExp]>([
    [
      'unknown operation',
      { operation: 'rotate' },
      /^Input 'operation' must be one of create, list, revoke, cleanup, audit; got "rotate"\.$/,
    ],
    ['empty clientId', { operation: 'list', clientId: '' }, /^Input 'clientId' is required/],
    [
      'empty clientSecret',
      { operation: 'list', clientSecret: '' },
      /^Input 'clientSecret' is required.*forks/,
    ],
    [
      'http to a remote host',
      { operation: 'list', baseUrl: 'http://api.example.com' },
      /^Input 'baseUrl' must use https/,
    ],
    [
      'a URL with credentials',
      { operation: 'list', authUrl: 'https://user:pw@auth.example.com' },
      /^Input 'authUrl' must not contain a user name or password/,
    ],
    ['create without name', { operation: 'create' }, /^Input 'name' is required/],
    [
      'a name of two lines',
      { operation: 'create', name: 'a\nb' },
      /^Input 'name' must be one line for operation create/,
    ],
    ['revoke without tokenId', { operation: 'revoke' }, /^Input 'tokenId' is required/],
    [
      'a tokenId that is not a UUID',
      { operation: 'revoke', tokenId: '../../admin' },
      /^Input 'tokenId' must be a UUID/,
    ],
    [
      'envName PATH',
      { operation: 'create', name: 'x', envName: 'PATH' },
      /^Input 'envName' must not be PATH/,
    ],
    [
      'envName GITHUB_TOKEN',
      { operation: 'create', name: 'x', envName: 'GITHUB_TOKEN' },
      /^Input 'envName' must not be GITHUB_TOKEN/,
    ],
    ...[
      'JAVA_TOOL_OPTIONS',
      'https_proxy',
      'GIT_SSH_COMMAND',
      'NODE_TLS_REJECT_UNAUTHORIZED',
      'Ld_Preload',
    ].map((envName): [string, Record<string, string>, RegExp] => [
      `envName ${envName} (it changes how later programs run)`,
      { operation: 'create', name: 'x', envName },
      new RegExp(`^Input 'envName' must not be ${envName}: `),
    ]),
    [
      'envName with a space',
      { operation: 'create', name: 'x', envName: 'MY TOKEN' },
      /^Input 'envName' must be an environment variable name/,
    ],
    [
      'an unknown state',
      { operation: 'list', state: 'expired' },
      /^Input 'state' must be one of active, revoked, all/,
    ],
    [
      'timeout 0',
      { operation: 'list', timeout: '0' },
      /^Input 'timeout' must be a whole number of seconds from 1 to 600/,
    ],
    [
      'summary maybe',
      { operation: 'list', summary: 'maybe' },
      /^Input 'summary' must be true or false/,
    ],
  ])('refuses %s naming the input, before any request', async (_, inputs, message) => {
    const run = await runAgainst(platform(), inputs)
    expect(expectCleanFailure(run)).toMatch(message)
    expect(platform().requests).toEqual([])
    expectNoLeaks(run, [platform().clientSecret])
  })

  it('fails on wrong credentials after one request, pointing at the inputs and forks', async () => {
    const run = await runAgainst(platform(), {
      operation: 'create',
      name: 'x',
      clientSecret: 'wrong-secret',
    })
    const authUrl = `${platform().authUrl}/idp/identity/resources/auth/v2/api-token`
    // The words of each failure: the golden messages of the unit tests (test/fixtures/golden.ts).
    const message = expectCleanFailure(run)
    expect(message).toMatch(/^create failed: authentication was refused: /)
    expect(message).toContain(`POST ${authUrl} answered 401 Unauthorized`)
    expect(message).toContain('Check the clientId and clientSecret inputs.')
    expect(message).toContain('forks')
    expect(platform().requestLines()).toEqual(['POST /idp/identity/resources/auth/v2/api-token'])
    expect(run.masked[0]).toBe('wrong-secret')
    expectNoLeaks(run, ['wrong-secret'])
    expect(run.outputs).toEqual({})
  })

  it('shows the status and the server detail of a rejection', async () => {
    platform().role = 'viewer'
    const run = await runAgainst(platform(), { operation: 'create', name: 'ci-deploy' })
    const message = expectCleanFailure(run)
    expect(message).toMatch(/^create failed: /)
    expect(message).toContain(`POST ${platform().baseUrl}/api/tokens answered 403 Forbidden`)
    expect(message).toContain('Your role may not manage gateway tokens')
    expect(run.outputs).toEqual({})
    expect(run.summary).toBe('')
  })

  it('says when the platform cannot be reached, after its retries', async () => {
    const authUrl = platform().authUrl
    await platform().close()
    const run = await runAction({
      inputs: { ...platform().connectionInputs(), operation: 'list', authUrl, retries: '1' },
    })
    const message = expectCleanFailure(run)
    expect(message).toMatch(/^list failed: authentication failed: /)
    expect(message).toContain(
      `POST ${authUrl}/idp/identity/resources/auth/v2/api-token got no answer`,
    )
    expect(message).toContain('(attempt 2 of 2)')
    expect(message).toContain('(ECONNREFUSED)')
    expect(message).toContain(`Check the authUrl input (${authUrl})`)
  })

  it('masks tokens in an error body and does not quote it', async () => {
    const leaky = {
      access_token: 'eyJleaky.access.token-0123456789abcdef',
      refresh_token: 'rt-leaky-0123456789abcdef',
    }
    platform().fail({ server: 'auth', status: 201, json: leaky })
    const run = await runAgainst(platform(), { operation: 'list', retries: '0' })
    const message = expectCleanFailure(run)
    expect(message).toContain('answered 201 Created')
    expect(message).toContain('(fields: access_token, refresh_token)')
    expect(run.masked).toEqual(expect.arrayContaining(Object.values(leaky)))
    expectNoLeaks(run, Object.values(leaky))
  })

  describe('in debug mode (RUNNER_DEBUG=1)', () => {
    const debug = { env: { RUNNER_DEBUG: '1' } }

    it.each<[string, Record<string, string>]>([
      ['create', { operation: 'create', name: 'ci-deploy', envName: 'GW_TOKEN' }],
      ['list', { operation: 'list' }],
      ['revoke', { operation: 'revoke' }],
    ])('%s logs requests but leaks no secret, body or header', async (operation, inputs) => {
      platform().seed({ name: 'existing' })
      const seeded = platform().seed({ name: 'to-revoke' })
      const tokenId = operation === 'revoke' ? { tokenId: seeded.id } : {}
      const run = await runAgainst(platform(), { ...inputs, ...tokenId }, debug)

      expect(run.exitCode).toBe(0)
      expect(run.log).toMatch(
        /##\[debug\](POST|GET) http:\/\/127\.0\.0\.1:\d+\/\S+ -> 20[01] in \d+ ms/,
      )
      expectNoLeaks(run, [...platform().secrets(), seeded.tokenValue ?? ''], {
        allowedOutputs: ['tokenValue'],
        allowedEnv: ['GW_TOKEN'],
      })
      expect(run.stdout).not.toMatch(/Bearer|authorization|"secret"|"name"|clientId/i)
    })

    it('a failure leaks nothing either', async () => {
      platform().role = 'viewer'
      const run = await runAgainst(platform(), { operation: 'create', name: 'x' }, debug)
      expectCleanFailure(run)
      expectNoLeaks(run, platform().secrets())
    })
  })
})
