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
} from '../../fixtures/nock-platform.js'

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
      expect(error.message).toBe(
        `authentication was refused: POST ${AUTH}${AUTH_PATH} answered 401 Unauthorized: Invalid client credentials. ` +
          'Check the clientId and clientSecret inputs. Secrets are not passed to workflows triggered from forks.',
      )
      expect(error.status).toBe(401)
    })

    it('fails on a 201, since only 200 is success', async () => {
      const { client } = setup()
      nock(AUTH).post(AUTH_PATH).reply(201, { access_token: ACCESS_TOKEN })
      const error = await rejection(client.listTokens())
      expect(error.message).toBe(
        `authentication failed: POST ${AUTH}${AUTH_PATH} answered 201 Created: a JSON body without an error message (fields: access_token).`,
      )
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
      await expect(client.listTokens()).rejects.toThrow(
        `POST ${AUTH}${AUTH_PATH} answered 200 but the body is not JSON.`,
      )
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

  describe('failures', () => {
    it('names the request, the status and the server detail', async () => {
      const { client } = setup()
      authOk()
      nock(API)
        .post('/prefix/api/tokens')
        .reply(403, { message: 'Role viewer may not create tokens' })
      const error = await rejection(client.createToken('x'))
      expect(error.message).toBe(
        `POST ${API}/prefix/api/tokens answered 403 Forbidden: Role viewer may not create tokens.`,
      )
    })

    it('joins an errors array', async () => {
      const { client } = setup()
      authOk()
      nock(API)
        .post('/prefix/api/tokens')
        .reply(400, { errors: [{ message: 'name too long' }, 'bad name'] })
      await expect(client.createToken('x')).rejects.toThrow(
        /400 Bad Request: name too long; bad name\.$/,
      )
    })

    it('scrubs a secret the server echoes back', async () => {
      const { client } = setup()
      nock(AUTH)
        .post(AUTH_PATH)
        .reply(400, { error: `bad secret ${CLIENT_SECRET}` })
      const error = await rejection(client.listTokens())
      expect(error.message).toContain('bad secret ***')
      expect(error.message).not.toContain(CLIENT_SECRET)
    })

    it('does not paste an HTML error page', async () => {
      const { client } = setup({ retries: 0 })
      authOk()
      nock(API)
        .get('/prefix/api/tokens')
        .reply(502, '<html><body><h1>502 Bad Gateway</h1><script>x</script></body></html>', {
          'Content-Type': 'text/html',
        })
      const error = await rejection(client.listTokens())
      expect(error.message).toBe(
        `GET ${API}/prefix/api/tokens answered 502 Bad Gateway: the body was not JSON (an HTML page).`,
      )
    })

    it('fails cleanly on a list that is not an array', async () => {
      const { client } = setup()
      authOk()
      nock(API).get('/prefix/api/tokens').reply(200, { tokens: [] })
      await expect(client.listTokens()).rejects.toThrow(
        `answered 200 but the body is not a list of tokens.`,
      )
    })

    it('fails cleanly on a record without an id or a state', async () => {
      const { client } = setup()
      authOk()
      nock(API)
        .get('/prefix/api/tokens')
        .reply(200, [record(), record({ id: undefined })])
      await expect(client.listTokens()).rejects.toThrow(
        'but item 1 of the list is a record without an id.',
      )
      nock(API)
        .post(`/prefix/api/tokens/${TOKEN_ID}/revoke`)
        .query(true)
        .reply(200, record({ state: undefined }))
      // The revoke's outcome is unclear, so the list is read once: the token is still active.
      nock(API).get('/prefix/api/tokens').reply(200, [record()])
      await expect(client.revokeToken(TOKEN_ID)).rejects.toThrow(
        'but the body is a record without a state.',
      )
    })

    it('fails on a created token without a value, naming its id', async () => {
      const { client } = setup()
      authOk()
      nock(API)
        .post('/prefix/api/tokens')
        .reply(201, record({ tokenValue: undefined }))
      await expect(client.createToken('x')).rejects.toThrow(
        `the new token ${TOKEN_ID} has no tokenValue; revoke it and try again;`,
      )
    })

    it('revokes at once a created token of another name than asked for, and hands nothing on (case 6)', async () => {
      const { client } = setup()
      authOk()
      const now = new Date(Date.UTC(2026, 10, 22, 12, 0, 0)).toISOString()
      nock(API)
        .post('/prefix/api/tokens')
        .reply(201, record({ name: 'someone-else', createdAt: now }))
      nock(API)
        .post(`/prefix/api/tokens/${TOKEN_ID}/revoke`)
        .query({ tokenId: TOKEN_ID })
        .reply(200, record({ state: 'revoked', tokenValue: undefined }))
      await expect(client.createToken('ci-deploy')).rejects.toThrow(
        `answered with the token 'someone-else' (${TOKEN_ID}) in state "active", not an active token named 'ci-deploy': its value was not handed on. It was revoked at once.`,
      )
      expect(nock.pendingMocks()).toEqual([])
    })

    it('fails on a created token that is not active, revoking nothing (case 6)', async () => {
      const { client } = setup()
      authOk()
      nock(API)
        .post('/prefix/api/tokens')
        .reply(201, record({ name: 'x', state: 'revoked' }))
      await expect(client.createToken('x')).rejects.toThrow(
        'in state "revoked", not an active token',
      )
      expect(nock.pendingMocks()).toEqual([])
    })

    it('revokes at once a token created without a value, or with a blank one (issue 18, case 4)', async () => {
      const { client } = setup()
      authOk()
      const now = new Date(Date.UTC(2026, 10, 22, 12, 0, 0)).toISOString()
      nock(API)
        .post('/prefix/api/tokens')
        .reply(201, record({ name: 'x', tokenValue: '  \t', createdAt: now }))
      nock(API)
        .get('/prefix/api/tokens')
        .reply(200, [record({ name: 'x', tokenValue: '   ', createdAt: now })])
      nock(API)
        .post(`/prefix/api/tokens/${TOKEN_ID}/revoke`)
        .query(true)
        .reply(200, record({ name: 'x', state: 'revoked', tokenValue: undefined }))
      await expect(client.createToken('x')).rejects.toThrow(
        `token ${TOKEN_ID} was created, but the platform does not show its value (the answer had none, or a blank one). It was revoked at once.`,
      )
      expect(nock.pendingMocks()).toEqual([])
    })

    it('says when no answer came', async () => {
      const { client } = setup({ retries: 0 })
      // An Error object: nock 14 drops a plain object silently.
      nock(AUTH)
        .post(AUTH_PATH)
        .replyWithError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))
      const error = await rejection(client.listTokens())
      expect(error.message).toBe(
        `authentication failed: POST ${AUTH}${AUTH_PATH} got no answer: connection refused (ECONNREFUSED). Check the authUrl input (${AUTH}) and that the runner can reach that host: a self-hosted runner may need a firewall rule or a proxy (HTTPS_PROXY, NO_PROXY).`,
      )
      expect(error.status).toBeUndefined()
    })

    it.each([404, 405])(
      'points a %s from the auth endpoint at authUrl and the URL called, not the credentials',
      async (status) => {
        const { client } = setup({ retries: 0 })
        nock(AUTH).post(AUTH_PATH).reply(status, { error: 'No route' })
        const error = await rejection(client.listTokens())
        expect(error.message).toBe(
          `authentication failed: POST ${AUTH}${AUTH_PATH} answered ${status} ${status === 404 ? 'Not Found' : 'Method Not Allowed'}: No route. Check the authUrl input: nothing takes credentials at ${AUTH}${AUTH_PATH}. Deployments differ in the path before /resources/auth/v2/api-token (/idp/identity, /frontegg/identity, /identity): set authUrl to the full endpoint URL, ending in /api-token.`,
        )
        expect(error.message).not.toContain('clientSecret')
      },
    )

    it('still points a 401 or 403 from the auth endpoint at the credentials', async () => {
      for (const status of [401, 403]) {
        const { client } = setup({ retries: 0 })
        nock(AUTH).post(AUTH_PATH).reply(status, { error: 'denied' })
        const error = await rejection(client.listTokens())
        expect(error.message).toMatch(/Check the clientId and clientSecret inputs\./)
        expect(error.message).not.toContain('authUrl')
      }
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
