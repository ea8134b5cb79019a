// PlatformClient under faults: retries, backoff and Retry-After, and the access token renewed.
import { describe, expect, it } from '@jest/globals'
import nock from 'nock'
import {
  API,
  AUTH,
  AUTH_PATH,
  authOk,
  record,
  rejection,
  setup,
  useNock,
  LIST,
  resetError,
} from '../../../fixtures/nock-platform.js'

useNock()

describe('PlatformClient under faults', () => {
  describe('retries', () => {
    it.each([408, 429, 500, 502, 503, 504])('retries a %i and succeeds', async (status) => {
      const { client, clock } = setup()
      authOk()
      nock(API).get(LIST).reply(status, { error: 'busy' }).get(LIST).reply(200, [])
      await expect(client.listTokens()).resolves.toEqual([])
      expect(clock.sleeps).toEqual([500])
    })

    it.each([400, 403, 404, 409, 422])('does not retry a %i', async (status) => {
      const { client, clock } = setup()
      authOk()
      nock(API).get(LIST).reply(status, { error: 'no' })
      await expect(client.listTokens()).rejects.toThrow(`answered ${status}`)
      expect(clock.sleeps).toEqual([])
      expect(nock.pendingMocks()).toEqual([])
    })

    it('retries network errors', async () => {
      const { client } = setup()
      authOk()
      nock(API).get(LIST).replyWithError(resetError()).get(LIST).reply(200, [record()])
      await expect(client.listTokens()).resolves.toHaveLength(1)
    })

    it('retries authentication like any call', async () => {
      const { client, log } = setup()
      nock(AUTH).post(AUTH_PATH).reply(503, 'Service Unavailable')
      authOk()
      nock(API).get(LIST).reply(200, [])
      await expect(client.listTokens()).resolves.toEqual([])
      // The words: test/unit/platform/call-loop/golden-messages.test.ts.
      const retry = log.lines.find((line) => line.includes('retrying in'))
      expect(retry).toContain(`info: POST ${AUTH}${AUTH_PATH} answered 503`)
      expect(retry).toContain('(attempt 1 of 4)')
      expect(retry).toContain('retrying in 0.5 s')
    })

    it('backs off exponentially, then gives up after retries + 1 attempts, saying so', async () => {
      const { client, clock } = setup({ retries: 3 })
      authOk()
      nock(API).get(LIST).times(4).reply(502, '<html><body>Bad gateway</body></html>')
      const error = await rejection(client.listTokens())
      expect(error.message).toContain(`GET ${API}${LIST} answered 502 Bad Gateway (attempt 4 of 4)`)
      expect(error.message).toContain('an HTML page')
      expect(error.status).toBe(502)
      expect(clock.sleeps).toEqual([500, 1000, 2000])
    })

    it('makes one attempt with retries: 0', async () => {
      const { client, clock } = setup({ retries: 0 })
      authOk()
      nock(API).get(LIST).reply(503, { error: 'maintenance' })
      await expect(client.listTokens()).rejects.toThrow(
        `GET ${API}${LIST} answered 503 Service Unavailable: maintenance.`,
      )
      expect(clock.sleeps).toEqual([])
    })

    it('waits as long as Retry-After asks, in seconds or as a date, within a cap', async () => {
      const { client, clock } = setup()
      authOk()
      nock(API)
        .get(LIST)
        .reply(429, { error: 'slow down' }, { 'Retry-After': '7' })
        .get(LIST)
        .reply(503, '', {
          'Retry-After': 'Sun, 22 Nov 2026 10:00:03 GMT',
          Date: 'Sun, 22 Nov 2026 10:00:00 GMT',
        })
        .get(LIST)
        .reply(429, '', { 'Retry-After': '86400' })
        .get(LIST)
        .reply(200, [])
      await client.listTokens()
      expect(clock.sleeps).toEqual([7000, 3000, 60_000])
    })
  })

  describe('access token', () => {
    it('authenticates again on a 401 and repeats the call once', async () => {
      const { client, log } = setup()
      authOk()
      nock(API).get(LIST).reply(401, { error: 'token expired' })
      nock(AUTH).post(AUTH_PATH).reply(200, { access_token: 'second-token' })
      nock(API).get(LIST).matchHeader('authorization', 'Bearer second-token').reply(200, [])
      await expect(client.listTokens()).resolves.toEqual([])
      expect(nock.pendingMocks()).toEqual([])
      expect(log.lines).toContain(`info: GET ${API}${LIST} answered 401: authenticating again.`)
    })

    it('fails on a second 401, saying the access token was rejected', async () => {
      const { client } = setup()
      authOk()
      nock(API).get(LIST).reply(401, { error: 'Unauthorized' })
      nock(AUTH).post(AUTH_PATH).reply(200, { access_token: 'second-token' })
      nock(API).get(LIST).reply(401, { error: 'Unauthorized' })
      const error = await rejection(client.listTokens())
      expect(error.message).toContain('the access token was rejected')
      expect(error.message).toContain(`GET ${API}${LIST} answered 401`)
      expect(error.message).toContain('even after authenticating again')
      expect(nock.pendingMocks()).toEqual([])
    })

    it('renews the token shortly before expires_in runs out, without a failed call', async () => {
      const { client, clock } = setup()
      nock(AUTH).post(AUTH_PATH).reply(200, { access_token: 'first', expires_in: 600 })
      nock(API).get(LIST).matchHeader('authorization', 'Bearer first').reply(200, [])
      await client.listTokens()
      clock.advance(541_000)
      nock(AUTH).post(AUTH_PATH).reply(200, { access_token: 'second', expires_in: 600 })
      nock(API).get(LIST).matchHeader('authorization', 'Bearer second').reply(200, [])
      await client.listTokens()
      expect(nock.pendingMocks()).toEqual([])
    })

    it('authenticates once for concurrent calls', async () => {
      const { client } = setup()
      authOk()
      nock(API).get(LIST).times(3).reply(200, [])
      await Promise.all([client.listTokens(), client.listTokens(), client.listTokens()])
      expect(nock.pendingMocks()).toEqual([])
    })
  })
})
