// The platform's addresses: the token endpoint and the REST paths (docs/PLATFORM-API.md section 4).
import { truncate } from '../shared/text.js'
import { isUuid } from '../shared/uuid.js'
import { USER_AGENT } from '../shared/version.js'
import { RequestError } from './errors.js'
import type { HttpRequest } from './http.js'

/** The token endpoint under the auth service's base URL (section 4.1). */
export const AUTH_PATH = '/idp/identity/resources/auth/v2/api-token'

/**
 * The full URL of the token endpoint, from authUrl (trailing `/` trimmed by the input
 * reader). Deployments differ in the path prefix, so a URL that already names the
 * endpoint (ends in `/api-token`) is used as it is.
 */
export function authEndpoint(authUrl: string): string {
  return authUrl.endsWith('/api-token') ? authUrl : authUrl + AUTH_PATH
}

/** Create (POST) and list (GET): section 4.2 and 4.3. */
export const TOKENS_PATH = '/api/tokens'

/**
 * Revoke: the id as a path segment and as the query parameter tokenId, both sent
 * (section 4.4). Only a UUID goes into the URL: an id from the platform such as `..`
 * or `a/b` would send the request somewhere else.
 */
export function revokePath(tokenId: string): string {
  if (!isUuid(tokenId)) {
    throw new RequestError(
      `the token id ${JSON.stringify(truncate(tokenId, 80))} is not a UUID, so it was not sent in a URL; nothing was revoked.`,
    )
  }
  const id = encodeURIComponent(tokenId)
  return `/api/tokens/${id}/revoke?tokenId=${id}`
}

/** A request with the JSON headers every call sends. */
export function jsonRequest(
  method: HttpRequest['method'],
  url: string,
  body?: string,
): HttpRequest {
  const headers: Record<string, string> = { Accept: 'application/json', 'User-Agent': USER_AGENT }
  if (body === undefined) return { method, url, headers }
  return { method, url, headers: { ...headers, 'Content-Type': 'application/json' }, body }
}

/** `METHOD url`, for messages and debug lines. URLs carry no credentials (inputs refuse them). */
export function requestLine(request: Pick<HttpRequest, 'method' | 'url'>): string {
  return `${request.method} ${request.url}`
}
