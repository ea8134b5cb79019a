import { describe, expect, it } from '@jest/globals'
import { TransportError, type HttpResponse } from '../../../../src/platform/http.js'
import {
  backoffDelay,
  DEFAULT_BACKOFF,
  isTransient,
  mayHaveTakenEffect,
  retryAfterDelay,
} from '../../../../src/platform/failures.js'

const answer = (status: number): HttpResponse => ({ status, statusText: '', headers: {}, body: '' })
const NOW = Date.UTC(2026, 10, 22, 12, 0, 0)

describe('backoffDelay', () => {
  it('doubles from the base, between half and all of each step', () => {
    const longest = [1, 2, 3, 4, 5].map((retry) => backoffDelay(retry, 1))
    const shortest = [1, 2, 3, 4, 5].map((retry) => backoffDelay(retry, 0))
    expect(longest).toEqual([500, 1000, 2000, 4000, 8000])
    expect(shortest).toEqual([250, 500, 1000, 2000, 4000])
    expect(backoffDelay(2, 0.5)).toBe(750)
  })

  it('never waits longer than the cap', () => {
    expect(backoffDelay(10, 1)).toBe(DEFAULT_BACKOFF.maxDelayMs)
    expect(backoffDelay(3, 1, { baseDelayMs: 100, maxDelayMs: 250, maxRetryAfterMs: 1000 })).toBe(
      250,
    )
  })
})

describe('retryAfterDelay', () => {
  it('reads delta-seconds', () => {
    expect(retryAfterDelay({ 'retry-after': '3' }, NOW)).toBe(3000)
    expect(retryAfterDelay({ 'retry-after': '0' }, NOW)).toBe(0)
  })

  it('reads an HTTP-date against the answer’s own Date header, so clock skew does not matter', () => {
    const headers = {
      'retry-after': 'Sun, 22 Nov 2026 09:00:05 GMT',
      date: 'Sun, 22 Nov 2026 09:00:00 GMT',
    }
    expect(retryAfterDelay(headers, NOW)).toBe(5000)
  })

  it('reads an HTTP-date against our clock when there is no Date header', () => {
    expect(retryAfterDelay({ 'retry-after': new Date(NOW + 2000).toUTCString() }, NOW)).toBe(2000)
    expect(retryAfterDelay({ 'retry-after': new Date(NOW - 9000).toUTCString() }, NOW)).toBe(0)
  })

  it('caps a long wait', () => {
    expect(retryAfterDelay({ 'retry-after': '3600' }, NOW)).toBe(DEFAULT_BACKOFF.maxRetryAfterMs)
  })

  it('ignores an absent or unreadable header', () => {
    expect(retryAfterDelay({}, NOW)).toBeUndefined()
    expect(retryAfterDelay({ 'retry-after': 'soon' }, NOW)).toBeUndefined()
    expect(retryAfterDelay({ 'retry-after': '-1' }, NOW)).toBeUndefined()
    // Digits, then more: neither delta-seconds nor an HTTP-date.
    expect(retryAfterDelay({ 'retry-after': '120 seconds' }, NOW)).toBeUndefined()
    expect(retryAfterDelay({ 'retry-after': '1.5.2' }, NOW)).toBeUndefined()
    expect(retryAfterDelay({ 'retry-after': '.5' }, NOW)).toBeUndefined()
    expect(retryAfterDelay({ 'retry-after': '1e3' }, NOW)).toBeUndefined()
  })

  it('reads fractional seconds, as some gateways send them, to the millisecond', () => {
    expect(retryAfterDelay({ 'retry-after': '1.5' }, NOW)).toBe(1500)
    expect(retryAfterDelay({ 'retry-after': '0.25' }, NOW)).toBe(250)
    expect(retryAfterDelay({ 'retry-after': '0.0004' }, NOW)).toBe(0)
    expect(retryAfterDelay({ 'retry-after': '3600.5' }, NOW)).toBe(60_000)
  })
})

describe('classification', () => {
  it.each([408, 429, 500, 502, 503, 504])('retries status %i', (status) => {
    expect(isTransient(answer(status))).toBe(true)
  })

  it.each([400, 401, 403, 404, 409, 422, 501])('does not retry status %i', (status) => {
    expect(isTransient(answer(status))).toBe(false)
  })

  it.each([
    'ECONNRESET',
    'ECONNREFUSED',
    'ECONNABORTED',
    'EPIPE',
    'ETIMEDOUT',
    'ENOTFOUND',
    'EAI_AGAIN',
    'EHOSTUNREACH',
    'ENETUNREACH',
    'ENETDOWN',
  ])('retries %s', (code) => {
    expect(isTransient(new TransportError('x', code, false))).toBe(true)
  })

  it.each([
    'CERT_HAS_EXPIRED',
    'ERR_TLS_CERT_ALTNAME_INVALID',
    'ERR_SSL_WRONG_VERSION_NUMBER',
    'ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION',
    'EPROTO',
  ])(
    'does not retry a TLS failure: %s (a certificate, or a handshake, will not change)',
    (code) => {
      expect(isTransient(new TransportError('x', code, false))).toBe(false)
    },
  )

  it('knows which failures may have been carried out', () => {
    // Any 5xx (a gateway may answer 503 after the platform acted) and 408: unknown.
    expect([500, 502, 503, 504, 501, 408].map((s) => mayHaveTakenEffect(answer(s)))).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
    ])
    // A refusal, or "too many requests": not done.
    expect([429, 400, 404, 409].map((s) => mayHaveTakenEffect(answer(s)))).toEqual([
      false,
      false,
      false,
      false,
    ])
    expect(mayHaveTakenEffect(new TransportError('x', 'ECONNRESET', true))).toBe(true)
    expect(mayHaveTakenEffect(new TransportError('x', 'ETIMEDOUT', true))).toBe(true)
    expect(mayHaveTakenEffect(new TransportError('x', 'ECONNREFUSED', false))).toBe(false)
  })
})
