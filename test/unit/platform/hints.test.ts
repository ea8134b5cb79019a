// What to check after a 404 from the API: the baseUrl, when the path is the action's own (case 8).
import { describe, expect, it } from '@jest/globals'
import { apiPathHint } from '../../../src/platform/hints.js'

const ID = '123e4567-e89b-42d3-a456-426614174000'

describe('apiPathHint', () => {
  it('names a baseUrl ending in /api, the most common mistake, for list, create and revoke', () => {
    const hint =
      ' Check the baseUrl input (https://x.example/api): the path repeats /api/; the action adds /api/tokens to it, so leave /api off its end.'
    expect(apiPathHint({ url: 'https://x.example/api/api/tokens' })).toBe(hint)
    expect(
      apiPathHint({ url: `https://x.example/api/api/tokens/${ID}/revoke?tokenId=${ID}` }),
    ).toBe(hint)
  })

  it('names another repeated segment as a path prefix to check', () => {
    expect(apiPathHint({ url: 'https://x.example/v1/v1/api/tokens' })).toBe(
      ' Check the baseUrl input (https://x.example/v1/v1): the path repeats /v1/; check its path prefix.',
    )
  })

  it('says nothing answers on a 404 of /api/tokens itself', () => {
    expect(apiPathHint({ url: 'https://x.example/gateway/api/tokens' })).toBe(
      " Nothing answers at https://x.example/gateway/api/tokens: check the baseUrl input (https://x.example/gateway). The action adds /api/tokens to it: give the API's base URL with its path prefix, if it has one, like https://api.example.com or https://example.com/gateway.",
    )
  })

  it("gives no hint for a revoke's 404 on a path that looks right: that is an unknown token", () => {
    expect(apiPathHint({ url: `https://x.example/api/tokens/${ID}/revoke?tokenId=${ID}` })).toBe('')
    expect(apiPathHint({ url: 'https://x.example/elsewhere' })).toBe('')
    // Not a repeat: /apis/api is two segments.
    expect(apiPathHint({ url: `https://x.example/apis/api/tokens/${ID}/revoke` })).toBe('')
  })
})
