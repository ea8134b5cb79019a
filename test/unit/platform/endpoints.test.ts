import { describe, expect, it } from '@jest/globals'
import { authEndpoint, AUTH_PATH, revokePath } from '../../../src/platform/endpoints.js'
import { RequestError } from '../../../src/platform/errors.js'

const ID = '123e4567-e89b-42d3-a456-426614174000'

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
})

describe('authEndpoint', () => {
  it('appends the token endpoint path to a base URL', () => {
    expect(authEndpoint('https://auth.example.com')).toBe(`https://auth.example.com${AUTH_PATH}`)
    expect(authEndpoint('https://auth.example.com/')).toBe(`https://auth.example.com${AUTH_PATH}`)
  })

  it('uses a URL that already names the endpoint as it is', () => {
    const full = 'https://auth.example.com/frontegg/identity/resources/auth/v2/api-token'
    expect(authEndpoint(full)).toBe(full)
  })
})
