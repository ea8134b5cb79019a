import { describe, expect, it } from '@jest/globals'
import { describeBody } from '../../../src/platform/server-detail.js'

describe('describeBody', () => {
  it.each<[string, string, string | undefined]>([
    ['{"error":"Token not found"}', 'Token not found', 'application/json'],
    ['{"message":"Forbidden for role"}', 'Forbidden for role', undefined],
    ['{"error":{"code":"E1","message":"nested"}}', 'nested', undefined],
    ['{"errors":["a",{"message":"b"},{"detail":"c"}]}', 'a; b; c', undefined],
    ['{"error":"x","message":"x"}', 'x', undefined],
    ['{"code":42}', '{"code":42}', undefined],
    ['"just a string"', 'just a string', undefined],
    ['Service Unavailable', 'Service Unavailable', 'text/plain'],
    ['line one\n::error::injected', 'line one ::error::injected', 'text/plain'],
    ['', '', undefined],
    [
      '<html><body>Bad gateway</body></html>',
      'the body was not JSON (an HTML page)',
      'text/html; charset=utf-8',
    ],
    ['<!DOCTYPE html><p>x</p>', 'the body was not JSON (an HTML page)', undefined],
  ])('%j gives %j', (body, expected, contentType) => {
    expect(describeBody(body, contentType)).toBe(expected)
  })

  it('shortens a long detail to a few hundred characters', () => {
    const detail = describeBody(JSON.stringify({ error: 'e'.repeat(5000) }), 'application/json')
    expect(detail).toHaveLength(300)
    expect(detail.endsWith('...')).toBe(true)
  })
})
