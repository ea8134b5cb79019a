// PlatformClient under faults: a revoke is idempotent, settled by the list after a refusal.
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
  TOKEN_ID,
  useNock,
  LIST,
  resetError,
  REVOKE,
} from '../../../fixtures/nock-platform.js'
import { UnsettledRevokeError } from '../../../../src/shared/errors.js'

import { isoAt as at } from '../../../fixtures/clock.js'

useNock()

describe('PlatformClient under faults', () => {
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
      expect(error.message).toContain(`no token with id ${TOKEN_ID} exists in the project`)
      expect(error.message).toContain(`POST ${API}${REVOKE}?tokenId=${TOKEN_ID} answered 404`)
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
