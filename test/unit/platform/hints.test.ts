// What to check after a 404 from the API: the baseUrl, when the path is the action's own (case 8).
import { describe, expect, it } from '@jest/globals'
import { apiPathHint, transportHint } from '../../../src/platform/failures.js'
import { TransportError } from '../../../src/platform/http.js'
import { TOKEN_ID as ID } from '../../fixtures/inputs.js'

// The words of each hint: test/unit/golden-messages-call-loop.test.ts.

describe('apiPathHint', () => {
  it('names a baseUrl ending in /api, the most common mistake, for list, create and revoke', () => {
    const hint = apiPathHint({ url: 'https://x.example/api/api/tokens' })
    expect(hint).toContain('Check the baseUrl input (https://x.example/api)')
    expect(hint).toContain('the path repeats /api/')
    expect(hint).toContain('leave /api off its end')
    expect(
      apiPathHint({ url: `https://x.example/api/api/tokens/${ID}/revoke?tokenId=${ID}` }),
    ).toBe(hint)
  })

  it('names another repeated segment as a path prefix to check', () => {
    const hint = apiPathHint({ url: 'https://x.example/v1/v1/api/tokens' })
    expect(hint).toContain('Check the baseUrl input (https://x.example/v1/v1)')
    expect(hint).toContain('the path repeats /v1/')
    expect(hint).toContain('check its path prefix')
    expect(hint).not.toContain('leave')
  })

  it('says nothing answers on a 404 of /api/tokens itself', () => {
    const hint = apiPathHint({ url: 'https://x.example/gateway/api/tokens' })
    expect(hint).toContain('Nothing answers at https://x.example/gateway/api/tokens')
    expect(hint).toContain('check the baseUrl input (https://x.example/gateway)')
    expect(hint).toContain('The action adds /api/tokens to it')
  })

  it("gives no hint for a revoke's 404 on a path that looks right: that is an unknown token", () => {
    expect(apiPathHint({ url: `https://x.example/api/tokens/${ID}/revoke?tokenId=${ID}` })).toBe('')
    expect(apiPathHint({ url: 'https://x.example/elsewhere' })).toBe('')
    // Not a repeat: /apis/api is two segments.
    expect(apiPathHint({ url: `https://x.example/apis/api/tokens/${ID}/revoke` })).toBe('')
  })
})

describe('transportHint: the proxy and TLS (issue 18, case 7)', () => {
  const hint = (code: string, target: 'auth' | 'api' = 'api') =>
    transportHint(
      new TransportError('x', code, false),
      target,
      'https://platform.test:8443/api/tokens',
      30_000,
    )

  it('points a 407 at the credentials in HTTPS_PROXY, and another refusal at what the proxy allows', () => {
    expect(hint('EPROXYAUTH')).toContain('Check the user name and password in HTTPS_PROXY')
    expect(hint('EPROXY')).toContain('would not open a tunnel to platform.test:8443')
  })

  it.each([
    'DEPTH_ZERO_SELF_SIGNED_CERT',
    'SELF_SIGNED_CERT_IN_CHAIN',
    'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
    'CERT_HAS_EXPIRED',
  ])('names the host and NODE_EXTRA_CA_CERTS for %s', (code) => {
    expect(hint(code)).toContain('does not trust the certificate of platform.test:8443')
    expect(hint(code)).toContain('NODE_EXTRA_CA_CERTS=')
    expect(hint(code)).toContain('TLS checks cannot be turned off')
  })

  it('points a certificate for another host at the URL input', () => {
    expect(hint('ERR_TLS_CERT_ALTNAME_INVALID', 'auth')).toContain(
      'Check the authUrl input (https://platform.test:8443)',
    )
  })

  it('says nothing for a failure it has no hint for', () => {
    expect(hint('ECONNRESET')).toBe('')
  })
})
