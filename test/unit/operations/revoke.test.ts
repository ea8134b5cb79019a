import { describe, expect, it } from '@jest/globals'
import { revoke } from '../../../src/operations/revoke.js'
import { FakeTokenApi, token } from '../../fixtures/token-api.js'

describe('revoke', () => {
  it('passes on that the token was revoked already', async () => {
    const revoked = token('a', 'ci', 1, { state: 'revoked', tokenValue: undefined })
    const api = new FakeTokenApi([revoked])
    // What the client answers once the list has settled the platform's refusal.
    api.revokes.set('a', { token: revoked, alreadyRevoked: true })
    const result = await revoke(api, { operation: 'revoke', tokenId: 'a' })
    expect(result).toEqual({
      operation: 'revoke',
      token: expect.objectContaining({ id: 'a' }),
      alreadyRevoked: true,
    })
    // Settled by the client, as it settles a single revoke: nothing left for later.
    expect(api.revokesSent).toEqual([{ tokenId: 'a', options: {} }])
  })

  it('revokes the token and returns the revoked record', async () => {
    const api = new FakeTokenApi([token('a', 'ci', 1)])
    const result = await revoke(api, { operation: 'revoke', tokenId: 'a' })
    expect(api.calls).toEqual(['revoke a'])
    expect(result.token).toMatchObject({ id: 'a', state: 'revoked' })
    expect(result.token).not.toHaveProperty('tokenValue')
  })
})
