// PlatformClient failures: what a failed call says, and what it does with a token it cannot hand on.
import { describe, expect, it } from '@jest/globals'
import nock from 'nock'
import {
  API,
  AUTH,
  AUTH_PATH,
  authOk,
  CLIENT_SECRET,
  record,
  rejection,
  setup,
  TOKEN_ID,
  useNock,
} from '../../../fixtures/nock-platform.js'

useNock()
describe('PlatformClient', () => {
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
      // The words: test/unit/platform/failures/golden-messages-client.test.ts.
      expect(error.message).toContain(`GET ${API}/prefix/api/tokens answered 502 Bad Gateway`)
      expect(error.message).toContain('an HTML page')
      expect(error.message).not.toMatch(/<|script|<h1>/)
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
      const { message } = await rejection(client.createToken('ci-deploy'))
      expect(message).toContain(`the token 'someone-else' (${TOKEN_ID})`)
      expect(message).toContain("not an active token named 'ci-deploy'")
      expect(message).toContain('It was revoked at once.')
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
      const { message } = await rejection(client.createToken('x'))
      expect(message).toContain(`token ${TOKEN_ID} was created`)
      expect(message).toContain('does not show its value')
      expect(message).toContain('It was revoked at once.')
      expect(nock.pendingMocks()).toEqual([])
    })

    it('says when no answer came', async () => {
      const { client } = setup({ retries: 0 })
      // An Error object: nock 14 drops a plain object silently.
      nock(AUTH)
        .post(AUTH_PATH)
        .replyWithError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))
      const error = await rejection(client.listTokens())
      expect(error.message).toContain(
        `authentication failed: POST ${AUTH}${AUTH_PATH} got no answer`,
      )
      expect(error.message).toContain('(ECONNREFUSED)')
      expect(error.message).toContain(`Check the authUrl input (${AUTH})`)
      expect(error.status).toBeUndefined()
    })

    it.each([404, 405])(
      'points a %s from the auth endpoint at authUrl and the URL called, not the credentials',
      async (status) => {
        const { client } = setup({ retries: 0 })
        nock(AUTH).post(AUTH_PATH).reply(status, { error: 'No route' })
        const error = await rejection(client.listTokens())
        expect(error.message).toContain(`authentication failed: POST ${AUTH}${AUTH_PATH}`)
        expect(error.message).toContain(`answered ${status} `)
        expect(error.message).toContain(`nothing takes credentials at ${AUTH}${AUTH_PATH}.`)
        expect(error.message).toContain('set authUrl to the full endpoint URL')
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
})
