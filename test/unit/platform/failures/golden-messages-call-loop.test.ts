// Golden messages of failures.ts, through the call loop: a request that failed, and what to
// check (a proxy, the timeout input, baseUrl, TLS). Worded by a CallLoop over a scripted
// FakeTransport, or by the hint functions alone. See test/fixtures/golden.ts.
import { apiPathHint, transportHint } from '../../../../src/platform/failures.js'
import { TransportError, type HttpRequest } from '../../../../src/platform/http.js'
import { loop, readStatus, REQUEST } from '../../../fixtures/call-loop.js'
import { failedStep, pinMessages } from '../../../fixtures/golden.js'
import type { Scripted } from '../../../fixtures/transport.js'

/** A GET of `url` that fails as `script` says, worded as the step's failure. */
const listFailed = (url: string, script: Scripted[], options: Parameters<typeof loop>[1] = {}) => {
  const request: HttpRequest = { ...REQUEST, url }
  return failedStep('list', () => loop(script, options).callLoop.call('api', request, readStatus))
}

pinMessages('what a failed call says', [
  {
    situation: 'the proxy refuses its credentials (407)',
    message: () =>
      listFailed(REQUEST.url, [
        new TransportError(
          'the proxy answered 407 Proxy Authentication Required (EPROXY)',
          'EPROXYAUTH',
          false,
        ),
      ]),
    expected: `list failed: GET ${REQUEST.url} got no answer: the proxy answered 407 Proxy Authentication Required (EPROXY). Check the user name and password in HTTPS_PROXY (http://user:password@proxy:port, the special characters %-encoded), and that the proxy lets this runner reach api.example.com.`,
  },
  {
    situation: 'no answer within the timeout input',
    message: () =>
      listFailed(
        REQUEST.url,
        [new TransportError('no answer within 5 s (timeout)', 'ETIMEDOUT', true)],
        { retries: 0 },
      ),
    expected: `list failed: GET ${REQUEST.url} got no answer: no answer within 5 s (timeout). The timeout input allows 5 s per request: raise it if the platform is this slow.`,
  },
  {
    situation: 'the API refuses the connection',
    message: () =>
      listFailed(
        REQUEST.url,
        [new TransportError('connection refused (ECONNREFUSED)', 'ECONNREFUSED', false)],
        { retries: 0 },
      ),
    expected: `list failed: GET ${REQUEST.url} got no answer: connection refused (ECONNREFUSED). Check the baseUrl input (https://api.example.com) and that the runner can reach that host: a self-hosted runner may need a firewall rule or a proxy (HTTPS_PROXY, NO_PROXY).`,
  },
  {
    situation: 'a 404 from a baseUrl that ends in /api',
    message: () =>
      listFailed('https://api.example.com/api/api/tokens', [
        { status: 404, statusText: 'Not Found', json: { error: 'No route GET /api/api/tokens' } },
      ]),
    expected:
      'list failed: GET https://api.example.com/api/api/tokens answered 404 Not Found: No route GET /api/api/tokens. Check the baseUrl input (https://api.example.com/api): the path repeats /api/; the action adds /api/tokens to it, so leave /api off its end.',
  },
  {
    situation: 'a 404 from a baseUrl with a wrong path prefix',
    message: () =>
      listFailed('https://api.example.com/wrong/api/tokens', [
        { status: 404, statusText: 'Not Found', json: { error: 'No route GET /wrong/api/tokens' } },
      ]),
    expected:
      "list failed: GET https://api.example.com/wrong/api/tokens answered 404 Not Found: No route GET /wrong/api/tokens. Nothing answers at https://api.example.com/wrong/api/tokens: check the baseUrl input (https://api.example.com/wrong). The action adds /api/tokens to it: give the API's base URL with its path prefix, if it has one, like https://api.example.com or https://example.com/gateway.",
  },
])

pinMessages('the hints', [
  {
    situation: 'an https:// baseUrl on this machine whose port speaks plain HTTP',
    message: () =>
      listFailed('https://127.0.0.1:4567/api/tokens', [
        new TransportError(
          'the server answered in plain HTTP, not in TLS (ERR_SSL_WRONG_VERSION_NUMBER)',
          'ERR_SSL_WRONG_VERSION_NUMBER',
          false,
        ),
      ]),
    expected:
      'list failed: GET https://127.0.0.1:4567/api/tokens got no answer: the server answered in plain HTTP, not in TLS (ERR_SSL_WRONG_VERSION_NUMBER). Check the baseUrl input (https://127.0.0.1:4567): that port speaks plain HTTP, not HTTPS. For a server on this machine, http:// is allowed: http://127.0.0.1:4567.',
  },
  {
    situation: 'a TLS handshake the server refuses',
    message: () =>
      listFailed(REQUEST.url, [
        new TransportError(
          'TLS with the server failed: tlsv1 alert protocol version (ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION)',
          'ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION',
          false,
        ),
      ]),
    expected: `list failed: GET ${REQUEST.url} got no answer: TLS with the server failed: tlsv1 alert protocol version (ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION). Check the baseUrl input (https://api.example.com): the runner could not set up TLS with that server, and trying again would not change that.`,
  },
  {
    situation: 'a baseUrl that repeats a segment other than /api',
    message: () => apiPathHint({ url: 'https://x.example/v1/v1/api/tokens' }),
    expected:
      ' Check the baseUrl input (https://x.example/v1/v1): the path repeats /v1/; check its path prefix.',
  },
  {
    situation: 'a certificate the runner does not trust',
    message: () =>
      transportHint(
        new TransportError('x', 'DEPTH_ZERO_SELF_SIGNED_CERT', false),
        'api',
        'https://platform.test:8443/api/tokens',
        30_000,
      ),
    expected:
      ' The runner does not trust the certificate of platform.test:8443. If it comes from a private CA, or a proxy that inspects TLS, give the runner that CA: NODE_EXTRA_CA_CERTS=/path/to/ca.pem in the environment of the job, or in the .env file of a self-hosted runner. TLS checks cannot be turned off.',
  },
])
