// What to check after a failure: the input most likely to need a look, so the user checks the right thing.
import { AUTH_PATH } from './endpoints.js'
import { TransportError, type Target } from './http.js'

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
  if (UNREACHABLE.has(error.code)) {
    const input = target === 'auth' ? 'authUrl' : 'baseUrl'
    return ` Check the ${input} input (${new URL(url).origin}) and that the runner can reach that host: a self-hosted runner may need a firewall rule or a proxy (HTTPS_PROXY, NO_PROXY).`
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
