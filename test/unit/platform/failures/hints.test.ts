// What to check after a 404 from the API: the baseUrl, when the path is the action's own (case 8).
import { describe, expect, it } from '@jest/globals'
import { apiPathHint, transportHint } from '../../../../src/platform/failures.js'
import { TransportError } from '../../../../src/platform/http.js'
import { PLAIN_HTTP } from '../../../../src/platform/http.js'
import { TOKEN_ID as ID } from '../../../fixtures/inputs.js'

// The words of each hint: test/unit/platform/failures/golden-messages-call-loop.test.ts.

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
    expect(hint('EODD')).toBe('')
  })
})

describe('transportHint: an https:// URL whose port speaks plain HTTP (issue 32)', () => {
  const hint = (url: string, target: 'auth' | 'api', code = PLAIN_HTTP) =>
    transportHint(new TransportError('x', code, false), target, url, 30_000)

  it.each([
    ['https://127.0.0.1:4567/idp/x/api-token', 'auth', 'authUrl', 'http://127.0.0.1:4567'],
    ['https://localhost:8080/api/tokens', 'api', 'baseUrl', 'http://localhost:8080'],
    ['https://[::1]:9000/api/tokens', 'api', 'baseUrl', 'http://[::1]:9000'],
    ['https://127.0.0.1/api/tokens', 'api', 'baseUrl', 'http://127.0.0.1:443'],
  ] as const)('on this machine (%s), names %s and offers http://', (url, target, input, http) => {
    const { origin } = new URL(url)
    expect(hint(url, target)).toBe(
      ` Check the ${input} input (${origin}): that port speaks plain HTTP, not HTTPS. For a server on this machine, http:// is allowed: ${http}.`,
    )
  })

  it.each([
    ['https://api.example.com:8080/api/tokens', 'api', 'baseUrl'],
    ['https://127.0.0.1.example.com/x/api-token', 'auth', 'authUrl'],
  ] as const)(
    'elsewhere (%s), names %s and the HTTPS port, never http://',
    (url, target, input) => {
      const text = hint(url, target)
      expect(text).toContain(
        `Check the ${input} input (${new URL(url).origin}): that port speaks plain HTTP`,
      )
      expect(text).toContain("so it is not the server's HTTPS port")
      expect(text).not.toContain('http://')
    },
  )

  it('names the URL input after another TLS failure, and says a retry will not help', () => {
    for (const code of ['ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION', 'EPROTO']) {
      expect(hint('https://api.example.com/api/tokens', 'api', code)).toBe(
        ' Check the baseUrl input (https://api.example.com): the runner could not set up TLS with that server, and trying again would not change that.',
      )
    }
  })
})
