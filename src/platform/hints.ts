// What to check after a failure: the input most likely to need a look, so the user checks the right thing.
import { AUTH_PATH, TOKENS_PATH } from './endpoints.js'
import { TLS_TRUST, TransportError, type HttpRequest, type Target } from './http.js'

// The host could not be reached at all: a wrong URL, or a network in the way.
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
])

/** A sentence to add to a final failure that got no answer, or '' when there is nothing to say. */
export function transportHint(
  error: TransportError,
  target: Target,
  url: string,
  timeoutMs: number,
): string {
  if (error.code === 'ETIMEDOUT') {
    return ` The timeout input allows ${timeoutMs / 1000} s per request: raise it if the platform is this slow.`
  }
  const input = target === 'auth' ? 'authUrl' : 'baseUrl'
  const { host, origin } = new URL(url)
  if (UNREACHABLE.has(error.code)) {
    return ` Check the ${input} input (${origin}) and that the runner can reach that host: a self-hosted runner may need a firewall rule or a proxy (HTTPS_PROXY, NO_PROXY).`
  }
  if (error.code === 'EPROXYAUTH') {
    return ` Check the user name and password in HTTPS_PROXY (http://user:password@proxy:port, the special characters %-encoded), and that the proxy lets this runner reach ${host}.`
  }
  if (error.code === 'EPROXY') {
    return ` The proxy in HTTPS_PROXY would not open a tunnel to ${host}: check that it allows that host, or list the host in NO_PROXY if the runner reaches it directly.`
  }
  if (error.code === 'ERR_TLS_CERT_ALTNAME_INVALID') {
    return ` Check the ${input} input (${origin}): the host's certificate names other hosts, and TLS checks cannot be turned off.`
  }
  if (TLS_TRUST.has(error.code)) {
    return ` The runner does not trust the certificate of ${host}. If it comes from a private CA, or a proxy that inspects TLS, give the runner that CA: NODE_EXTRA_CA_CERTS=/path/to/ca.pem in the environment of the job, or in the .env file of a self-hosted runner. TLS checks cannot be turned off.`
  }
  return ''
}

/**
 * After the token endpoint answered 404 or 405, the path is wrong, not the credentials:
 * deployments differ in the prefix before /resources/auth/v2/api-token.
 */
export function authPathHint(endpoint: string): string {
  const tail = AUTH_PATH.slice(AUTH_PATH.indexOf('/resources/'))
  return `Check the authUrl input: nothing takes credentials at ${endpoint}. Deployments differ in the path before ${tail} (/idp/identity, /frontegg/identity, /identity): set authUrl to the full endpoint URL, ending in /api-token.`
}

/**
 * After the API answered 404 where the action's own path should be: the path is wrong,
 * not the request. The action adds /api/tokens to baseUrl, so the most common mistake is
 * a baseUrl that ends in /api (`GET .../api/api/tokens`): a repeated path segment is named.
 * A 404 on /api/tokens itself (list, create) says that nothing answers there. A revoke's
 * 404 without a repeated segment is an unknown token, not a path: no hint.
 */
export function apiPathHint(request: Pick<HttpRequest, 'url'>): string {
  const { origin, pathname } = new URL(request.url)
  const at = pathname.lastIndexOf(TOKENS_PATH)
  if (at < 0) return ''
  const baseUrl = origin + pathname.slice(0, at)
  const repeated = /\/([^/]+)\/\1(?=\/)/.exec(pathname)?.[1]
  if (repeated !== undefined) {
    const advice =
      `${baseUrl}/`.endsWith(`/${repeated}/`) && `${TOKENS_PATH}/`.startsWith(`/${repeated}/`)
        ? `the action adds ${TOKENS_PATH} to it, so leave /${repeated} off its end`
        : 'check its path prefix'
    return ` Check the baseUrl input (${baseUrl}): the path repeats /${repeated}/; ${advice}.`
  }
  if (pathname.endsWith(TOKENS_PATH)) {
    return ` Nothing answers at ${origin}${pathname}: check the baseUrl input (${baseUrl}). The action adds ${TOKENS_PATH} to it: give the API's base URL with its path prefix, if it has one, like https://api.example.com or https://example.com/gateway.`
  }
  return ''
}

/**
 * After an answer that is not JSON where the API should answer: the URL most likely leads
 * to the web app, which answers every path with a page. The input to check, and what the
 * action adds to it.
 */
export function notJsonHint(request: Pick<HttpRequest, 'url'>, target: Target): string {
  const { origin, pathname } = new URL(request.url)
  if (target === 'auth') {
    return ` Check the authUrl input: the action posts the credentials to ${origin}${pathname}, which must be the auth service's token endpoint (authUrl plus ${AUTH_PATH}, or authUrl itself when it ends in /api-token).`
  }
  const at = pathname.lastIndexOf(TOKENS_PATH)
  const baseUrl = origin + (at < 0 ? pathname : pathname.slice(0, at))
  return ` Check the baseUrl input (${baseUrl}): the action adds ${TOKENS_PATH} to it, so it must be the REST API's base URL, not the web app's.`
}
