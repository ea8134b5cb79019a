// api.ts's addresses: the revoke's path, which only a UUID enters, and the auth service's token endpoint.
import { describe, expect, it } from '@jest/globals'
import { authEndpoint, AUTH_PATH, revokePath } from '../../../../src/platform/api.js'
import { RequestError } from '../../../../src/shared/errors.js'
import { TOKEN_ID as ID } from '../../../fixtures/inputs.js'

describe('revokePath', () => {
  it('puts a UUID in the path and the query', () => {
    expect(revokePath(ID)).toBe(`/api/tokens/${ID}/revoke?tokenId=${ID}`)
  })

  it.each(['..', '.', 'a/b', '%2e%2e', `${ID}?x=1`, `${ID} `, ''])(
    'refuses %j before any request is made',
    (id) => {
      expect(() => revokePath(id)).toThrow(RequestError)
      expect(() => revokePath(id)).toThrow(/is not a UUID, so it was not sent in a URL/)
    },
  )

  it('puts an upper-case UUID in the URL as well', () => {
    const upper = ID.toUpperCase()
    expect(revokePath(upper)).toBe(`/api/tokens/${upper}/revoke?tokenId=${upper}`)
  })

  it('says which id it refused, and that nothing was revoked', () => {
    expect(() => revokePath('..')).toThrow(
      'the token id ".." is not a UUID, so it was not sent in a URL; nothing was revoked.',
    )
  })
})

describe('authEndpoint', () => {
  it('appends the token endpoint path to a base URL', () => {
    expect(authEndpoint('https://auth.example.com')).toBe(`https://auth.example.com${AUTH_PATH}`)
  })

  it('uses a URL that already names the endpoint as it is', () => {
    const full = 'https://auth.example.com/frontegg/identity/resources/auth/v2/api-token'
    expect(authEndpoint(full)).toBe(full)
  })

  it.each(['https://auth.example.com/my-api-token', 'https://auth.example.com/api-tokens'])(
    'treats %s as a base URL: /api-token is not its last path segment',
    (base) => {
      expect(authEndpoint(base)).toBe(`${base}${AUTH_PATH}`)
    },
  )
})
