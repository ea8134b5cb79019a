// The operation tests' FakeTokenApi answers only what a test scripts: it settles nothing and guesses no refusal.
import { describe, expect, it } from '@jest/globals'
import { RequestError, UnsettledRevokeError } from '../../src/shared/errors.js'
import { FakeTokenApi, refused, token } from '../fixtures/token-api.js'

describe('FakeTokenApi', () => {
  it('throws exactly the scripted error, whatever the options, and lists nothing', async () => {
    const api = new FakeTokenApi([token('a', 'ci', 1, { state: 'revoked', tokenValue: undefined })])
    const refusal = refused(409, 'answered 409 Conflict.')
    api.revokes.set('a', refusal)
    await expect(api.revokeToken('a')).rejects.toBe(refusal)
    await expect(api.revokeToken('a', { settle: 'later' })).rejects.toBe(refusal)
    expect(api.calls).toEqual(['revoke a', 'revoke a'])
  })

  it('returns the scripted answer, leaving the stored token as it is', async () => {
    const api = new FakeTokenApi([token('a', 'ci', 1)])
    const answer = { token: token('a', 'ci', 1, { state: 'revoked' }), alreadyRevoked: true }
    api.revokes.set('a', answer)
    await expect(api.revokeToken('a')).resolves.toEqual(answer)
    expect(api.tokens[0]?.state).toBe('active')
  })

  it('answers the next sends from nextRevokes first, each once', async () => {
    const api = new FakeTokenApi([token('a', 'ci', 1)])
    const busy = new RequestError('answered 503.', 503)
    api.nextRevokes.push(busy)
    await expect(api.revokeToken('a')).rejects.toBe(busy)
    await expect(api.revokeToken('a')).resolves.toMatchObject({ alreadyRevoked: false })
  })

  it('with nothing scripted, revokes a stored active token', async () => {
    const api = new FakeTokenApi([token('a', 'ci', 1)])
    const answer = await api.revokeToken('a', { settle: 'later' })
    expect(answer).toEqual({
      token: expect.objectContaining({ id: 'a', state: 'revoked' }),
      alreadyRevoked: false,
    })
    expect(answer.token).not.toHaveProperty('tokenValue')
    expect(api.revokesSent).toEqual([{ tokenId: 'a', options: { settle: 'later' } }])
  })

  it.each([
    ['an id it does not hold', [], 'not stored'],
    ['a token revoked already', [token('a', 'ci', 1, { state: 'revoked' })], 'stored revoked'],
  ])('with nothing scripted for %s, fails the test: it does not guess', async (_, tokens, what) => {
    const api = new FakeTokenApi(tokens)
    const error = await api.revokeToken('a').catch((e: unknown) => e)
    expect(error).not.toBeInstanceOf(RequestError)
    expect(error).not.toBeInstanceOf(UnsettledRevokeError)
    expect((error as Error).message).toContain(`revoke of a, which is ${what}: a test bug.`)
    expect(api.calls).toEqual(['revoke a'])
  })
})
