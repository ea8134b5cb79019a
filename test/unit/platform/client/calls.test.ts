import { describe, expect, it } from '@jest/globals'
import nock from 'nock'
import {
  ACCESS_TOKEN,
  API,
  AUTH,
  AUTH_PATH,
  authOk,
  CLIENT_SECRET,
  record,
  rejection,
  REFRESH_TOKEN,
  setup,
  TOKEN_ID,
  useNock,
} from '../../../fixtures/nock-platform.js'

useNock()

describe('PlatformClient', () => {
  it('creates a token with two requests, masking each secret as it arrives', async () => {
    const { client, masked } = setup()
    const auth = authOk()
    const create = nock(API)
      .post('/prefix/api/tokens', { name: 'ci-deploy' })
      .matchHeader('authorization', `Bearer ${ACCESS_TOKEN}`)
      .matchHeader('content-type', 'application/json')
      .reply(201, record())

    const token = await client.createToken('ci-deploy')

    expect(token).toEqual(record())
    expect(auth.isDone() && create.isDone()).toBe(true)
    expect(masked).toEqual([CLIENT_SECRET, ACCESS_TOKEN, REFRESH_TOKEN, 'eyJ.gateway.value'])
    client.close()
  })

  it('authenticates once for several calls', async () => {
    const { client } = setup()
    authOk()
    nock(API).get('/prefix/api/tokens').times(2).reply(200, [])
    await client.listTokens()
    await client.listTokens()
    expect(nock.isDone()).toBe(true)
  })

  it('accepts accessToken, the spelling of an older platform client', async () => {
    const { client, masked } = setup()
    authOk({ accessToken: ACCESS_TOKEN })
    nock(API)
      .get('/prefix/api/tokens')
      .matchHeader('authorization', `Bearer ${ACCESS_TOKEN}`)
      .reply(200, [])
    await expect(client.listTokens()).resolves.toEqual([])
    expect(masked).toContain(ACCESS_TOKEN)
  })

  it('lists records, masking the value of every active one and dropping unknown fields', async () => {
    const { client, masked } = setup()
    authOk()
    const revoked = record({
      id: 'r-1',
      state: 'revoked',
      tokenValue: undefined,
      revokedAt: '2026-11-02T00:00:00Z',
      revokedBy: 'u-2',
    })
    nock(API)
      .get('/prefix/api/tokens')
      .reply(200, [
        record({ tokenValue: 'value-a', extra: { secretish: 'x' } }),
        revoked,
        record({ id: 'c', tokenValue: 'value-c' }),
      ])

    const tokens = await client.listTokens()

    expect(tokens.map((t) => t.id)).toEqual([TOKEN_ID, 'r-1', 'c'])
    expect(tokens[0]).not.toHaveProperty('extra')
    expect(tokens[1]).toMatchObject({
      state: 'revoked',
      revokedAt: '2026-11-02T00:00:00Z',
      revokedBy: 'u-2',
    })
    expect(masked.slice(-2)).toEqual(['value-a', 'value-c'])
  })

  it('revokes with the id in both the path and the query, and no body', async () => {
    const { client } = setup()
    authOk()
    let body: unknown
    nock(API)
      .post(`/prefix/api/tokens/${TOKEN_ID}/revoke`, (b: unknown) => {
        body = b
        return true
      })
      .query({ tokenId: TOKEN_ID })
      .matchHeader('authorization', `Bearer ${ACCESS_TOKEN}`)
      .reply(200, record({ state: 'revoked', tokenValue: undefined }))

    const { token, alreadyRevoked } = await client.revokeToken(TOKEN_ID)

    expect(token.state).toBe('revoked')
    expect(alreadyRevoked).toBe(false)
    expect(body).toBe('')
  })

  describe('authentication', () => {
    it('fails on a status other than 200, pointing at the credentials and forks', async () => {
      const { client } = setup()
      nock(AUTH).post(AUTH_PATH).reply(401, { error: 'Invalid client credentials' })
      const error = await rejection(client.listTokens())
      // The words of each failure: test/unit/platform/client/golden-messages.test.ts.
      expect(error.message).toContain(`authentication was refused: POST ${AUTH}${AUTH_PATH}`)
      expect(error.message).toContain('answered 401 Unauthorized: Invalid client credentials.')
      expect(error.message).toContain('Check the clientId and clientSecret inputs.')
      expect(error.message).toContain('forks')
      expect(error.status).toBe(401)
    })

    it('fails on a 201, since only 200 is success', async () => {
      const { client } = setup()
      nock(AUTH).post(AUTH_PATH).reply(201, { access_token: ACCESS_TOKEN })
      const error = await rejection(client.listTokens())
      expect(error.message).toContain(`authentication failed: POST ${AUTH}${AUTH_PATH}`)
      expect(error.message).toContain('answered 201 Created')
      expect(error.message).toContain('(fields: access_token)')
      expect(error.message).not.toContain(ACCESS_TOKEN)
    })

    it.each([
      ['an empty access_token', { access_token: '' }],
      ['no access_token', { token_type: 'Bearer' }],
      ['a non-string access_token', { access_token: 42 }],
    ])('fails on a 200 with %s', async (_, body) => {
      const { client } = setup()
      nock(AUTH).post(AUTH_PATH).reply(200, body)
      const error = await rejection(client.listTokens())
      expect(error.message).toBe(
        `authentication failed: POST ${AUTH}${AUTH_PATH} answered 200 without an access_token.`,
      )
      expect(nock.pendingMocks()).toEqual([])
    })

    it('fails on a 200 whose body is not JSON', async () => {
      const { client } = setup()
      nock(AUTH).post(AUTH_PATH).reply(200, 'OK')
      const error = await rejection(client.listTokens())
      expect(error.message).toContain(
        `POST ${AUTH}${AUTH_PATH} answered 200 with a body that is not JSON. Check the authUrl input`,
      )
      expect(error.transient).toBe(false)
    })
  })

  describe('secrets in error bodies', () => {
    it('masks tokens in any answer, whatever its status, and never quotes a body without an error field', async () => {
      const { client, masked } = setup({ retries: 0 })
      nock(AUTH)
        .post(AUTH_PATH)
        .reply(201, { access_token: ACCESS_TOKEN, refresh_token: REFRESH_TOKEN })
      const error = await rejection(client.listTokens())
      expect(masked).toEqual(expect.arrayContaining([ACCESS_TOKEN, REFRESH_TOKEN]))
      expect(error.message).toContain('answered 201 Created: a JSON body without an error message')
      expect(error.message).not.toContain(ACCESS_TOKEN)
      expect(error.message).not.toContain(REFRESH_TOKEN)
    })

    it('masks a token value in a failed create’s body and keeps it out of every line', async () => {
      const { client, masked, log } = setup({ retries: 0 })
      authOk()
      nock(API)
        .post('/prefix/api/tokens')
        .reply(502, {
          error: 'could not answer token GW-SECRET-VALUE',
          data: { token: { id: 'x', tokenValue: 'GW-SECRET-VALUE' } },
        })
      nock(API).get('/prefix/api/tokens').reply(200, [])
      const error = await rejection(client.createToken('ci-deploy'))
      expect(masked).toContain('GW-SECRET-VALUE')
      expect(error.message).toContain('could not answer token ***')
      expect(error.message + log.lines.join('\n')).not.toContain('GW-SECRET-VALUE')
    })

    it('scrubs a secret echoed at the end of a long detail, before shortening it', async () => {
      const { client } = setup({ retries: 0 })
      nock(AUTH)
        .post(AUTH_PATH)
        .reply(400, { error: `${'x'.repeat(290)} ${CLIENT_SECRET}` })
      const error = await rejection(client.listTokens())
      expect(error.message).toContain(`answered 400 Bad Request: ${'x'.repeat(20)}`)
      expect(error.message).not.toContain(CLIENT_SECRET.slice(0, 6))
    })
  })

  it('logs requests in debug without bodies, headers or secrets', async () => {
    const { client, log, masked } = setup()
    authOk()
    nock(API).post('/prefix/api/tokens').reply(201, record())
    await client.createToken('ci-deploy')
    const debug = log.lines.join('\n')
    expect(debug).toMatch(/POST https:\/\/api\.example\.com\/prefix\/api\/tokens -> 201 in \d+ ms/)
    expect(masked).toEqual(
      expect.arrayContaining([CLIENT_SECRET, ACCESS_TOKEN, 'eyJ.gateway.value']),
    )
    for (const secret of masked) expect(debug).not.toContain(secret)
    expect(debug).not.toContain('ci-deploy')
  })
})
