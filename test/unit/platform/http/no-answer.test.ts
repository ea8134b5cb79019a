// A request that got no answer, in words: TLS failures in the action's words, never OpenSSL's (issue 32).
import { describe, expect, it } from '@jest/globals'
import { inWords, kindOf, PLAIN_HTTP } from '../../../../src/platform/http.js'

/** An error as Node raises it: a message and a code. */
const nodeError = (message: string, code?: string) => Object.assign(new Error(message), { code })

// What Node 24 and Node 20 raise for `https://` to a port that speaks plain HTTP.
const WRONG_VERSION = [
  'write EPROTO 404D628C157F0000:error:0A00010B:SSL routines:tls_validate_record_header:wrong version number:../deps/openssl/openssl/ssl/record/methods/tlsany_meth.c:77:\n',
  'write EPROTO 800CCB82467F0000:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:../deps/openssl/openssl/ssl/record/ssl3_record.c:350:\n',
  // OpenSSL 1.1's form.
  'write EPROTO 140:error:1408F10B:SSL routines:ssl3_get_record:wrong version number:../deps/openssl/openssl/ssl/record/ssl3_record.c:332:\n',
]
const ALERT =
  'write EPROTO 409D906AFD7E0000:error:0A00042E:SSL routines:ssl3_read_bytes:tlsv1 alert protocol version:../deps/openssl/openssl/ssl/record/rec_layer_s3.c:918:SSL alert number 70\n'

describe('inWords: TLS failures', () => {
  it.each(WRONG_VERSION)(
    'says that a port answered in plain HTTP, and that the request never reached it: %s',
    (message) => {
      for (const sent of [true, false]) {
        expect(inWords(nodeError(message, 'EPROTO'), sent)).toEqual([
          'the server answered in plain HTTP, not in TLS (ERR_SSL_WRONG_VERSION_NUMBER)',
          PLAIN_HTTP,
          false,
        ])
      }
    },
  )

  it("says another failure of OpenSSL's on one line, by its reason, named as Node names it", () => {
    const [message, code, sent] = inWords(nodeError(ALERT, 'EPROTO'), true)
    expect(message).toBe(
      'TLS with the server failed: tlsv1 alert protocol version (ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION)',
    )
    expect(code).toBe('ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION')
    // Written, for all it knows: the failure may have come after the request.
    expect(sent).toBe(true)
    expect(inWords(nodeError(ALERT, 'EPROTO'), false)[2]).toBe(false)
  })

  it('keeps the ERR_SSL_ code Node gave, and says its reason alone', () => {
    const message =
      'C0:error:0A000410:SSL routines::sslv3 alert handshake failure:../deps/openssl/openssl/ssl/record/rec_layer_s3.c:1605:SSL alert number 40'
    expect(inWords(nodeError(message, 'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE'), false)).toEqual([
      'TLS with the server failed: sslv3 alert handshake failure (ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE)',
      'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE',
      false,
    ])
  })

  it("shows none of OpenSSL's internals: its codes, its source paths, its line break", () => {
    for (const message of [...WRONG_VERSION, ALERT]) {
      const [words] = inWords(nodeError(message, 'EPROTO'), true)
      expect(words).not.toMatch(/error:|0A0|deps\/openssl|\.c:\d|routines|\n/)
    }
  })

  it("keeps a code the table knows, in the table's words, though OpenSSL's text comes with it", () => {
    expect(inWords(nodeError(`read ECONNRESET ${ALERT}`, 'ECONNRESET'), true)).toEqual([
      'connection reset (ECONNRESET)',
      'ECONNRESET',
      true,
    ])
  })

  it("keeps Node's words for a failure without OpenSSL's text, on one line", () => {
    expect(inWords(nodeError('write EPROTO', 'EPROTO'), true)).toEqual([
      'write EPROTO (EPROTO)',
      'EPROTO',
      true,
    ])
    expect(inWords(nodeError('something\nodd\r\n', 'EODD'), false)).toEqual([
      'something odd (EODD)',
      'EODD',
      false,
    ])
    expect(inWords('not an error', true)).toEqual(['not an error (EUNKNOWN)', 'EUNKNOWN', true])
  })
})

describe("inWords: the action's words for Node's codes", () => {
  it.each([
    ['ECONNREFUSED', 'connection refused'],
    ['ENOTFOUND', 'host not found'],
    ['EAI_AGAIN', 'host name lookup failed'],
    ['EHOSTUNREACH', 'host unreachable'],
    ['ENETUNREACH', 'network unreachable'],
    ['ECONNRESET', 'connection reset'],
    ['ECONNABORTED', 'connection aborted'],
    ['EPIPE', 'connection closed while sending'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'its certificate is self-signed, and not trusted'],
    [
      'SELF_SIGNED_CERT_IN_CHAIN',
      'its certificate chain ends in a self-signed CA that is not trusted',
    ],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'its certificate was issued by a CA that is not trusted'],
    ['UNABLE_TO_GET_ISSUER_CERT', 'certificate not trusted'],
    ['UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'its certificate was issued by a CA that is not trusted'],
    ['CERT_UNTRUSTED', 'certificate not trusted'],
    ['CERT_SIGNATURE_FAILURE', 'certificate not trusted'],
    ['CERT_HAS_EXPIRED', 'its certificate has expired'],
    ['CERT_NOT_YET_VALID', 'certificate not trusted'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'its certificate is for another host name'],
  ])("%s: '%s', not Node's words", (code, words) => {
    const [message] = inWords(nodeError(`Node's words for ${code}. Try --a-flag.`, code), false)
    expect(message).toBe(`${words} (${code})`)
  })

  it("keeps Node's words where the table has none: a timeout, a network that is down", () => {
    expect(inWords(nodeError('connect ETIMEDOUT 10.0.0.1:443', 'ETIMEDOUT'), true)[0]).toBe(
      'connect ETIMEDOUT 10.0.0.1:443 (ETIMEDOUT)',
    )
    expect(inWords(nodeError('connect ENETDOWN', 'ENETDOWN'), false)[0]).toBe(
      'connect ENETDOWN (ENETDOWN)',
    )
  })

  it("names a proxy's refusal, and says the request never left the runner", () => {
    const refusal = (status: number) =>
      inWords(
        nodeError(`tunneling socket could not be established, statusCode=${status}`, 'ECONNRESET'),
        true,
      )
    expect(refusal(407)).toEqual([
      'the proxy answered 407 Proxy Authentication Required (EPROXY)',
      'EPROXYAUTH',
      false,
    ])
    expect(refusal(403)).toEqual(['the proxy answered 403 to the tunnel (EPROXY)', 'EPROXY', false])
  })
})

describe('kindOf: what a code is, for retries and hints', () => {
  it.each([
    ['ECONNREFUSED', 'unreachable'],
    ['ENETDOWN', 'unreachable'],
    ['ETIMEDOUT', 'lost'],
    ['ECONNRESET', 'lost'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'certificate'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'certificate'],
    [PLAIN_HTTP, 'tls'],
    ['EPROTO', 'tls'],
    ['ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION', 'tls'],
    ['ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE', 'tls'],
  ])('%s is %s', (code, kind) => {
    expect(kindOf(code)).toBe(kind)
  })

  it.each(['EODD', 'EUNKNOWN', 'ERR_TLS_SOMETHING', 'XERR_SSL_X', 'EMSGSIZE'])(
    '%s is of no kind: no retry, no hint',
    (code) => {
      expect(kindOf(code)).toBeUndefined()
    },
  )
})
