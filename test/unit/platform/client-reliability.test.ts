import { describe, expect, it } from '@jest/globals'
import nock from 'nock'
import {
  ACCESS_TOKEN,
  API,
  AUTH,
  AUTH_PATH,
  authOk,
  record,
  rejection,
  setup,
  TOKEN_ID,
  useNock,
} from '../../fixtures/nock-platform.js'
import { UnsettledRevokeError } from '../../../src/platform/errors.js'

useNock()

const LIST = '/prefix/api/tokens'
const REVOKE = `/prefix/api/tokens/${TOKEN_ID}/revoke`
const resetError = () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' })

/** An ISO time `ms` after the fake clock's start. */
const at = (ms: number) => new Date(Date.UTC(2026, 10, 22, 12, 0, 0) + ms).toISOString()

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
      expect(log.lines).toContain(
        `info: POST ${AUTH}${AUTH_PATH} answered 503 Service Unavailable (attempt 1 of 4): Service Unavailable; retrying in 0.5 s.`,
      )
    })

    it('backs off exponentially, then gives up after retries + 1 attempts, saying so', async () => {
      const { client, clock } = setup({ retries: 3 })
      authOk()
      nock(API).get(LIST).times(4).reply(502, '<html><body>Bad gateway</body></html>')
      const error = await rejection(client.listTokens())
      expect(error.message).toBe(
        `GET ${API}${LIST} answered 502 Bad Gateway (attempt 4 of 4): the body was not JSON (an HTML page).`,
      )
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
      expect(error.message).toBe(
        `the access token was rejected: GET ${API}${LIST} answered 401 Unauthorized even after authenticating again: Unauthorized.`,
      )
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

  describe('create never makes two tokens', () => {
    const createFails = (reply: (scope: nock.Interceptor) => nock.Scope) =>
      reply(nock(API).post(LIST).matchHeader('authorization', `Bearer ${ACCESS_TOKEN}`))

    it('adopts the token when a 502 came after the platform created it', async () => {
      const { client, log } = setup()
      authOk()
      createFails((i) => i.reply(502, 'Bad Gateway'))
      const created = record({
        id: '00000000-0000-4000-8000-00000000000a',
        createdAt: at(100),
        tokenValue: 'the-new-value',
      })
      nock(API)
        .get(LIST)
        .reply(200, [record({ id: 'old', createdAt: at(-3_600_000) }), created])

      const token = await client.createToken('ci-deploy')

      expect(token).toMatchObject({
        id: '00000000-0000-4000-8000-00000000000a',
        tokenValue: 'the-new-value',
      })
      expect(nock.pendingMocks()).toEqual([])
      expect(log.lines).toContain(
        "info: It was: token 00000000-0000-4000-8000-00000000000a, created at 2026-11-22T12:00:00.100Z, is this step's token.",
      )
    })

    it('sends again at once when the request never left (connection refused)', async () => {
      // A reset after the request was sent is checked like a 502: the end-to-end tests
      // show it against a real server, as nock cannot tell when a request was sent.
      const { client } = setup()
      authOk()
      createFails((i) =>
        i.replyWithError(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' })),
      )
      nock(API)
        .post(LIST)
        .reply(201, record({ id: '00000000-0000-4000-8000-00000000000a' }))
      await expect(client.createToken('ci-deploy')).resolves.toMatchObject({
        id: '00000000-0000-4000-8000-00000000000a',
      })
      expect(nock.pendingMocks()).toEqual([])
    })

    it('waits the backoff before checking, so that a platform finishing late is seen', async () => {
      const { client, clock, log } = setup()
      authOk()
      createFails((i) => i.reply(502, 'Bad Gateway'))
      nock(API)
        .get(LIST)
        .reply(200, [record({ id: '00000000-0000-4000-8000-00000000000a', createdAt: at(100) })])
      await client.createToken('ci-deploy')
      expect(clock.sleeps).toEqual([500])
      const retryLine = log.lines.findIndex((line) => line.includes('retrying in 0.5 s'))
      const checkLine = log.lines.findIndex((line) => line.includes('checking the list'))
      expect(retryLine).toBeGreaterThanOrEqual(0)
      expect(retryLine).toBeLessThan(checkLine)
    })

    it('refuses to guess when several tokens with the name were created meanwhile', async () => {
      const { client } = setup()
      authOk()
      createFails((i) => i.reply(504, ''))
      nock(API)
        .get(LIST)
        .reply(200, [
          record({ id: 'mine-or-theirs-1', createdAt: at(100) }),
          record({ id: 'mine-or-theirs-2', createdAt: at(200) }),
        ])
      await expect(client.createToken('ci-deploy')).rejects.toThrow(
        "2 active tokens named 'ci-deploy' were created since this step began (mine-or-theirs-2, mine-or-theirs-1)",
      )
      expect(nock.pendingMocks()).toEqual([])
    })

    it('creates again when the list shows it was not created', async () => {
      const { client, clock, log } = setup()
      authOk()
      createFails((i) => i.reply(500, { error: 'oops' }))
      // Only an old token with the same name: not this step's.
      nock(API)
        .get(LIST)
        .reply(200, [record({ id: 'old', createdAt: at(-3_600_000) })])
      nock(API)
        .post(LIST)
        .reply(201, record({ id: '00000000-0000-4000-8000-00000000000b', createdAt: at(600) }))
      // Two seconds after the create sent again, the list is read once more for a late one.
      nock(API)
        .get(LIST)
        .reply(200, [
          record({ id: 'old', createdAt: at(-3_600_000) }),
          record({ id: '00000000-0000-4000-8000-00000000000b', createdAt: at(600) }),
        ])
      const lost: string[] = []
      await expect(
        client.createToken('ci-deploy', { onLostAnswer: () => lost.push('lost') }),
      ).resolves.toMatchObject({
        id: '00000000-0000-4000-8000-00000000000b',
      })
      expect(clock.sleeps).toEqual([500, 2000])
      expect(lost).toEqual(['lost'])
      expect(log.lines.filter((line) => line.startsWith('warning'))).toEqual([])
      expect(nock.pendingMocks()).toEqual([])
    })

    it('names a token of the lost create that the list shows late, and keeps it', async () => {
      const { client, log } = setup()
      authOk()
      createFails((i) => i.reply(500, { error: 'oops' }))
      nock(API).get(LIST).reply(200, [])
      const mine = '00000000-0000-4000-8000-00000000000b'
      const late = '00000000-0000-4000-8000-00000000000f'
      nock(API)
        .post(LIST)
        .reply(201, record({ id: mine, createdAt: at(600) }))
      nock(API)
        .get(LIST)
        .reply(200, [
          record({ id: late, createdAt: at(100) }),
          record({ id: mine, createdAt: at(600) }),
          // Made before this step began: another's, not named.
          record({ id: 'earlier', createdAt: at(-3_600_000) }),
          // Another name, and a revoked one: not named either.
          record({ id: 'other', name: 'ci-other', createdAt: at(100) }),
          record({ id: 'gone', createdAt: at(100), state: 'revoked' }),
        ])
      await expect(client.createToken('ci-deploy')).resolves.toMatchObject({ id: mine })
      const warnings = log.lines.filter((line) => line.startsWith('warning'))
      expect(warnings).toHaveLength(1)
      expect(warnings[0]).toContain(`'ci-deploy' (${late})`)
      expect(warnings[0]).toContain('nobody has its value')
      expect(warnings[0]).not.toMatch(/earlier|other|gone/)
      // Kept: with the same name, another job's token would look the same.
      expect(nock.pendingMocks()).toEqual([])
    })

    it('still hands on its token when the late look at the list fails', async () => {
      const { client, log } = setup({ retries: 1 })
      authOk()
      createFails((i) => i.reply(500, { error: 'oops' }))
      nock(API).get(LIST).reply(200, [])
      const mine = '00000000-0000-4000-8000-00000000000b'
      nock(API)
        .post(LIST)
        .reply(201, record({ id: mine, createdAt: at(600) }))
      nock(API).get(LIST).times(2).reply(503, { error: 'busy' })
      await expect(client.createToken('ci-deploy')).resolves.toMatchObject({ id: mine })
      expect(
        log.lines.some((line) => line.startsWith('debug: Could not look for a late create')),
      ).toBe(true)
      expect(nock.pendingMocks()).toEqual([])
    })

    it('does not wait to look for a late create past totalTimeout', async () => {
      // 2.4 s in all: after the 0.5 s backoff, less than the 2 s wait is left.
      const { client, clock, log } = setup({ totalTimeoutMs: 2_400 })
      authOk()
      createFails((i) => i.reply(500, { error: 'oops' }))
      nock(API).get(LIST).reply(200, [])
      const mine = '00000000-0000-4000-8000-00000000000b'
      nock(API)
        .post(LIST)
        .reply(201, record({ id: mine, createdAt: at(600) }))
      await expect(client.createToken('ci-deploy')).resolves.toMatchObject({ id: mine })
      expect(clock.sleeps).toEqual([500])
      expect(log.lines).toContain(
        "debug: No time left in totalTimeout to look for a late create of 'ci-deploy'.",
      )
      expect(nock.pendingMocks()).toEqual([])
    })

    it('does not look again when the first answer came', async () => {
      const { client, clock } = setup()
      authOk()
      nock(API)
        .post(LIST)
        .reply(201, record({ id: '00000000-0000-4000-8000-00000000000b', createdAt: at(600) }))
      const lost: string[] = []
      await client.createToken('ci-deploy', { onLostAnswer: () => lost.push('lost') })
      expect(clock.sleeps).toEqual([])
      expect(lost).toEqual([])
    })

    it('uses the platform’s Date header to tell its tokens from earlier ones', async () => {
      const { client } = setup()
      // The platform's clock is an hour behind the runner's.
      const platformDate = new Date(Date.UTC(2026, 10, 22, 11, 0, 0)).toUTCString()
      nock(AUTH).post(AUTH_PATH).reply(200, { access_token: ACCESS_TOKEN }, { Date: platformDate })
      createFails((i) => i.reply(504, '', { Date: platformDate }))
      nock(API)
        .get(LIST)
        .reply(200, [
          record({
            id: '00000000-0000-4000-8000-00000000000d',
            createdAt: at(-3_600_000 - 60_000),
          }),
          record({ id: '00000000-0000-4000-8000-00000000000c', createdAt: at(-3_600_000 + 200) }),
        ])
      await expect(client.createToken('ci-deploy')).resolves.toMatchObject({
        id: '00000000-0000-4000-8000-00000000000c',
      })
    })

    it('without a Date header, does not adopt a token of that name made 30 s before the step', async () => {
      const { client } = setup()
      authOk()
      createFails((i) => i.reply(502, ''))
      const theirs = '00000000-0000-4000-8000-00000000000e'
      nock(API)
        .get(LIST)
        .reply(200, [record({ id: theirs, createdAt: at(-30_000) })])
      const error = await rejection(client.createToken('ci-deploy'))
      expect(error.message).toBe(
        `POST ${API}${LIST} answered 502 Bad Gateway (attempt 1 of 4); the list shows one active token named 'ci-deploy', ${theirs}, but it was created 30 s before the create was sent by the runner's clock, and the platform's answers carry no Date header to compare the two clocks with, so it may be another's. It was not taken for this step's: look for this step's token before running again.`,
      )
      // Neither adopted nor created again: one create, one list.
      expect(nock.pendingMocks()).toEqual([])
    })

    it('sends a 503 again at once: it says nothing was done', async () => {
      const { client } = setup()
      authOk()
      createFails((i) => i.reply(503, ''))
      nock(API).post(LIST).reply(201, record())
      await expect(client.createToken('ci-deploy')).resolves.toMatchObject({ id: TOKEN_ID })
      expect(nock.pendingMocks()).toEqual([])
    })

    it('adopts the token when the create answered 201 with a body that is not JSON', async () => {
      const { client } = setup()
      authOk()
      createFails((i) => i.reply(201, '<html>oops</html>'))
      nock(API)
        .get(LIST)
        .reply(200, [record({ id: '00000000-0000-4000-8000-00000000000a', createdAt: at(5) })])
      await expect(client.createToken('ci-deploy')).resolves.toMatchObject({
        id: '00000000-0000-4000-8000-00000000000a',
      })
    })

    it('says the outcome is unknown when the check fails too', async () => {
      const { client } = setup({ retries: 1 })
      authOk()
      createFails((i) => i.reply(502, ''))
      nock(API).get(LIST).times(2).reply(500, { error: 'list down' })
      const error = await rejection(client.createToken('ci-deploy'))
      expect(error.message).toMatch(
        /^POST .*\/api\/tokens answered 502 Bad Gateway \(attempt 1 of 2\); whether token 'ci-deploy' was created is unknown, as listing the tokens failed too: GET .* answered 500 Internal Server Error \(attempt 2 of 2\): list down\. Look for it before running again\.$/,
      )
    })
  })

  describe('revoke is idempotent', () => {
    it('succeeds on a token that is already revoked, after one look at the list', async () => {
      const { client } = setup()
      authOk()
      nock(API)
        .post(REVOKE)
        .query({ tokenId: TOKEN_ID })
        .reply(409, { error: 'Token is already revoked' })
      const revoked = record({
        state: 'revoked',
        tokenValue: undefined,
        revokedAt: at(-1000),
        revokedBy: 'u-9',
      })
      nock(API).get(LIST).reply(200, [revoked])
      const outcome = await client.revokeToken(TOKEN_ID)
      expect(outcome).toEqual({
        token: expect.objectContaining({ state: 'revoked', revokedBy: 'u-9' }),
        alreadyRevoked: true,
      })
      expect(nock.pendingMocks()).toEqual([])
    })

    it('says no such token exists, after one extra request and no retries', async () => {
      const { client, clock } = setup()
      authOk()
      nock(API).post(REVOKE).query(true).reply(404, { error: 'Token not found' })
      nock(API)
        .get(LIST)
        .reply(200, [record({ id: 'someone-else' })])
      const error = await rejection(client.revokeToken(TOKEN_ID))
      expect(error.message).toBe(
        `no token with id ${TOKEN_ID} exists in the project: POST ${API}${REVOKE}?tokenId=${TOKEN_ID} answered 404 Not Found: Token not found.`,
      )
      expect(clock.sleeps).toEqual([])
      expect(nock.pendingMocks()).toEqual([])
    })

    it('keeps the platform’s refusal when the token exists and is active', async () => {
      const { client } = setup()
      authOk()
      nock(API)
        .post(REVOKE)
        .query(true)
        .reply(403, { error: 'Your role may not revoke this token' })
      nock(API).get(LIST).reply(200, [record()])
      await expect(client.revokeToken(TOKEN_ID)).rejects.toThrow(
        'answered 403 Forbidden: Your role may not revoke this token.',
      )
    })

    it('retries a lost answer, and a repeat that finds it revoked succeeds', async () => {
      const { client } = setup()
      authOk()
      nock(API).post(REVOKE).query(true).replyWithError(resetError())
      nock(API).post(REVOKE).query(true).reply(409, { error: 'Token is already revoked' })
      nock(API)
        .get(LIST)
        .reply(200, [record({ state: 'revoked', tokenValue: undefined })])
      await expect(client.revokeToken(TOKEN_ID)).resolves.toMatchObject({ alreadyRevoked: true })
    })

    it('after a lost answer, a repeat that finds it revoked reports this call’s revoke, not an old one', async () => {
      const { client } = setup()
      authOk()
      nock(API).post(REVOKE).query(true).reply(502, 'Bad Gateway')
      nock(API).post(REVOKE).query(true).reply(409, { error: 'Token is already revoked' })
      nock(API)
        .get(LIST)
        .reply(200, [record({ state: 'revoked', tokenValue: undefined })])
      await expect(client.revokeToken(TOKEN_ID)).resolves.toMatchObject({
        alreadyRevoked: false,
        token: { state: 'revoked' },
      })
    })

    it('does not look anything up when authentication fails', async () => {
      const { client } = setup({ retries: 0 })
      nock(AUTH).post(AUTH_PATH).reply(403, { error: 'client disabled' })
      await expect(client.revokeToken(TOKEN_ID)).rejects.toThrow(/^authentication was refused: /)
      expect(nock.pendingMocks()).toEqual([])
    })

    it("with settle: 'later', throws a refusal unsettled and lists nothing", async () => {
      const { client } = setup()
      authOk()
      nock(API).post(REVOKE).query(true).reply(409, { error: 'Token is already revoked' })
      const error = await client.revokeToken(TOKEN_ID, { settle: 'later' }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(UnsettledRevokeError)
      expect(error).toMatchObject({ status: 409, mayHaveRevoked: false })
      expect(nock.pendingMocks()).toEqual([])
    })

    it('keeps the refusal when the list fails too', async () => {
      const { client } = setup({ retries: 0 })
      authOk()
      nock(API).post(REVOKE).query(true).reply(403, { error: 'not yours' })
      nock(API).get(LIST).reply(500, { error: 'list down' })
      await expect(client.revokeToken(TOKEN_ID)).rejects.toThrow(
        'answered 403 Forbidden: not yours.',
      )
      expect(nock.pendingMocks()).toEqual([])
    })

    it("with settle: 'later', marks a garbled success as one this call may have made", async () => {
      const { client } = setup()
      authOk()
      nock(API).post(REVOKE).query(true).reply(200, 'garbled')
      const error = await client.revokeToken(TOKEN_ID, { settle: 'later' }).catch((e: unknown) => e)
      expect(error).toMatchObject({ status: 200, mayHaveRevoked: true })
    })

    describe('an answer that does not match the request is no success (case 6)', () => {
      const OTHER = '223e4567-e89b-42d3-a456-426614174000'
      const revokedOther = record({
        id: OTHER,
        name: 'other-y',
        state: 'revoked',
        tokenValue: undefined,
      })

      it("does not report another token's record as this token revoked: the list settles it", async () => {
        const { client } = setup()
        authOk()
        nock(API).post(REVOKE).query(true).reply(200, revokedOther)
        nock(API).get(LIST).reply(200, [record(), revokedOther])
        const error = await rejection(client.revokeToken(TOKEN_ID))
        expect(error.message).toBe(
          `POST ${API}${REVOKE}?tokenId=${TOKEN_ID} answered 200 with the record of another token, 'other-y' (${OTHER}).`,
        )
        expect(nock.pendingMocks()).toEqual([])
      })

      it('succeeds, with its own record, when the list shows this token revoked', async () => {
        const { client } = setup()
        authOk()
        nock(API).post(REVOKE).query(true).reply(200, revokedOther)
        const mine = record({ state: 'revoked', tokenValue: undefined, revokedBy: 'u-1' })
        nock(API).get(LIST).reply(200, [mine, revokedOther])
        await expect(client.revokeToken(TOKEN_ID)).resolves.toEqual({
          token: expect.objectContaining({ id: TOKEN_ID, name: 'ci-deploy', state: 'revoked' }),
          alreadyRevoked: false,
        })
      })

      it('is no success when the record is still active, and accepts an id in other case', async () => {
        const { client } = setup()
        authOk()
        nock(API).post(REVOKE).query(true).reply(200, record())
        nock(API).get(LIST).reply(200, [record()])
        await expect(client.revokeToken(TOKEN_ID)).rejects.toThrow(
          `answered 200 with the token in state "active", not revoked.`,
        )
        authOk()
        nock(API)
          .post(REVOKE)
          .query(true)
          .reply(
            200,
            record({ id: TOKEN_ID.toUpperCase(), state: 'revoked', tokenValue: undefined }),
          )
        await expect(client.revokeToken(TOKEN_ID)).resolves.toMatchObject({ alreadyRevoked: false })
      })
    })

    it('does not look anything up after a persistent server error', async () => {
      const { client } = setup({ retries: 1 })
      authOk()
      nock(API).post(REVOKE).query(true).times(2).reply(500, { error: 'down' })
      await expect(client.revokeToken(TOKEN_ID)).rejects.toThrow(
        'answered 500 Internal Server Error (attempt 2 of 2): down.',
      )
      expect(nock.pendingMocks()).toEqual([])
    })
  })
})
