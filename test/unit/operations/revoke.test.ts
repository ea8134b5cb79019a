import { describe, expect, it } from '@jest/globals'
import { revoke } from '../../../src/operations/revoke.js'
import { FakeTokenApi, token } from '../../fixtures/token-api.js'

describe('revoke', () => {
  it('passes on that the token was revoked already', async () => {
    const api = new FakeTokenApi([token('a', 'ci', 1, { state: 'revoked', tokenValue: undefined })])
    const result = await revoke(api, { operation: 'revoke', tokenId: 'a' })
    expect(result).toEqual({
      operation: 'revoke',
      token: expect.objectContaining({ id: 'a' }),
      alreadyRevoked: true,
    })
  })

  it('revokes the token and returns the revoked record', async () => {
    const api = new FakeTokenApi([token('a', 'ci', 1)])
    const result = await revoke(api, { operation: 'revoke', tokenId: 'a' })
    expect(api.calls).toEqual(['revoke a'])
    expect(result.token).toMatchObject({ id: 'a', state: 'revoked' })
    expect(result.token).not.toHaveProperty('tokenValue')
  })
})
