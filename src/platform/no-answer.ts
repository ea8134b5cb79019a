// A request that got no answer, in words: Node's and OpenSSL's failures, the kind of each (may it pass, what to check), and whether the request left.
import { oneLine } from '../shared/text.js'

const UNTRUSTED_CA = 'its certificate was issued by a CA that is not trusted'
/** Node's code for an `https://` URL whose port speaks plain HTTP. */
export const PLAIN_HTTP = 'ERR_SSL_WRONG_VERSION_NUMBER'

/** What a request that got no answer ran into: see NODE_ERRORS. */
type Kind = 'unreachable' | 'lost' | 'certificate' | 'tls'

/**
 * The Node error codes of a request that got no answer, with the action's words for most
 * (else Node's own are kept) and their kind, which decides whether the failure may pass
 * (isTransient) and what to check (transportHint): a host not reached at all (a wrong URL,
 * or a network in the way) and a connection lost may pass with time. A TLS failure does
 * not, and is not retried: a certificate that is not trusted, or not for the host (Node's
 * own words for that may suggest a flag a workflow cannot pass), and a handshake the two
 * sides cannot complete (a port that speaks plain HTTP, no TLS version in common, an alert
 * from the server) are settings, the same a second later. A connection lost during the
 * handshake is ECONNRESET, and retried.
 */
const NODE_ERRORS: Record<string, [kind: Kind, words?: string]> = {
  ECONNREFUSED: ['unreachable', 'connection refused'],
  ENOTFOUND: ['unreachable', 'host not found'],
  EAI_AGAIN: ['unreachable', 'host name lookup failed'],
  EHOSTUNREACH: ['unreachable', 'host unreachable'],
  ENETUNREACH: ['unreachable', 'network unreachable'],
  ENETDOWN: ['unreachable'],
  ECONNRESET: ['lost', 'connection reset'],
  ECONNABORTED: ['lost', 'connection aborted'],
  EPIPE: ['lost', 'connection closed while sending'],
  ETIMEDOUT: ['lost'],
  DEPTH_ZERO_SELF_SIGNED_CERT: ['certificate', 'its certificate is self-signed, and not trusted'],
  SELF_SIGNED_CERT_IN_CHAIN: [
    'certificate',
    'its certificate chain ends in a self-signed CA that is not trusted',
  ],
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: ['certificate', UNTRUSTED_CA],
  UNABLE_TO_GET_ISSUER_CERT: ['certificate', 'certificate not trusted'],
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: ['certificate', UNTRUSTED_CA],
  CERT_UNTRUSTED: ['certificate', 'certificate not trusted'],
  CERT_SIGNATURE_FAILURE: ['certificate', 'certificate not trusted'],
  CERT_HAS_EXPIRED: ['certificate', 'its certificate has expired'],
  CERT_NOT_YET_VALID: ['certificate', 'certificate not trusted'],
  ERR_TLS_CERT_ALTNAME_INVALID: ['certificate', 'its certificate is for another host name'],
  // OpenSSL's name for a first answer that is no TLS record: `HTTP/1.1 400 Bad Request`.
  [PLAIN_HTTP]: ['tls', 'the server answered in plain HTTP, not in TLS'],
  // A write that TLS refused: OpenSSL's reason names it better (inWords), when there is one.
  EPROTO: ['tls'],
}

/** The kind of a code, as NODE_ERRORS says; any other failure of OpenSSL's (ERR_SSL_*) is TLS's. */
export function kindOf(code: string): Kind | undefined {
  return NODE_ERRORS[code]?.[0] ?? (code.startsWith('ERR_SSL_') ? 'tls' : undefined)
}

// The proxy's own answer to CONNECT, in the words of the tunnel library.
const PROXY_REFUSAL = /tunneling socket could not be established, statusCode=(\d{3})/
// One error of OpenSSL's (`405D...:error:0A00010B:SSL routines:tls_validate_record_header:wrong
// version number:../deps/openssl/ssl/record/methods/tlsany_meth.c:77:`): its reason is all we keep.
const OPENSSL_ERROR = /\berror:[0-9A-F]+:[^:\n]*:[^:\n]*:([^:\n]+)/

/**
 * A TransportError's message, code and whether the request was written, for an error of
 * Node's or of the proxy tunnel's, on one line in the action's words.
 */
export function inWords(error: unknown, sent: boolean): [string, string, boolean] {
  const message = error instanceof Error ? error.message : String(error)
  // The tunnel library calls the proxy's refusal ECONNRESET, which would be retried as
  // one. A 407 is the proxy's credentials; no retry changes that.
  const proxyStatus = PROXY_REFUSAL.exec(message)?.[1]
  if (proxyStatus === '407')
    return ['the proxy answered 407 Proxy Authentication Required (EPROXY)', 'EPROXYAUTH', false]
  if (proxyStatus !== undefined)
    return [`the proxy answered ${proxyStatus} to the tunnel (EPROXY)`, 'EPROXY', false]
  const code = (error as { code?: unknown }).code
  const given = typeof code === 'string' ? code : 'EUNKNOWN'
  // OpenSSL's own words (its codes, its source paths, the line break after them) are never
  // shown, only its reason; a failed write's EPROTO says nothing, so it is named after the
  // reason, as Node names that failure elsewhere (ERR_SSL_WRONG_VERSION_NUMBER).
  const reason = OPENSSL_ERROR.exec(message)?.[1]
  const known =
    given === 'EPROTO' && reason !== undefined
      ? `ERR_SSL_${reason.toUpperCase().replaceAll(' ', '_')}`
      : given
  // Node's own words for what the table does not know, on one line all the same.
  const words =
    NODE_ERRORS[known]?.[1] ??
    (reason === undefined ? oneLine(message) : `TLS with the server failed: ${reason}`)
  // A server that speaks plain HTTP cannot have read a request sent in TLS.
  return [`${words} (${known})`, known, sent && known !== PLAIN_HTTP]
}
