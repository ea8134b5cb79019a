import { describe, expect, it } from '@jest/globals'
import { describeBody } from '../../../../src/platform/failures.js'

describe('describeBody', () => {
  it.each<[string, string, string | undefined]>([
    ['{"error":"Token not found"}', 'Token not found', 'application/json'],
    ['{"message":"Forbidden for role"}', 'Forbidden for role', undefined],
    ['{"error":{"code":"E1","message":"nested"}}', 'nested', undefined],
    ['{"errors":["a",{"message":"b"},{"detail":"c"}]}', 'a; b; c', undefined],
    ['{"error":"x","message":"x"}', 'x', undefined],
    [
      '{"code":42,"access_token":"eyJ.x"}',
      'a JSON body without an error message (fields: code, access_token)',
      undefined,
    ],
    ['[1,2]', 'a JSON body without an error message', undefined],
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
    expect(describeBody(body, contentType, (text) => text)).toBe(expected)
  })

  it('shortens a long detail to a few hundred characters', () => {
    const detail = describeBody(
      JSON.stringify({ error: 'e'.repeat(5000) }),
      'application/json',
      (text) => text,
    )
    expect(detail).toHaveLength(300)
    expect(detail.endsWith('...')).toBe(true)
  })

  it('reads a JSON body nested 30,000 deep without overflowing the stack', () => {
    const nested = `${'{"a":'.repeat(9_999)}{"error":"deep"}${'}'.repeat(9_999)}`
    expect(describeBody(nested, 'application/json', (text) => text)).toBe(
      'a JSON body without an error message (fields: a)',
    )
  })

  it('does not quote the start of a JSON body too long to read whole', () => {
    const body = `${'{"a":'.repeat(30_000)}{}${'}'.repeat(30_000)}`
    expect(describeBody(body, 'application/json', (text) => text)).toBe(
      `a JSON body of ${body.length} characters, too long to read for its message`,
    )
  })

  it('quotes a short body that only looks like JSON, as it is', () => {
    expect(describeBody('{not json: overloaded', 'application/json', (t) => t)).toBe(
      '{not json: overloaded',
    )
  })

  it('quotes the start of a long text body that is not JSON', () => {
    const detail = describeBody(`Overloaded ${'x'.repeat(70_000)}`, 'text/plain', (t) => t)
    expect(detail.startsWith('Overloaded xxx')).toBe(true)
    expect(detail).toHaveLength(300)
  })
})

describe('describeBody and secrets', () => {
  it('scrubs the whole body before shortening, so that no piece of a secret survives the cut', () => {
    const secret = 'cs-0123456789abcdefghijklmnopqrstuvwxyz'
    const body = JSON.stringify({ error: `${'x'.repeat(290)} ${secret}` })
    const detail = describeBody(body, 'application/json', (text) => text.split(secret).join('***'))
    expect(detail).toMatch(/^x{290} \*\*\*$/)
    expect(detail).not.toContain(secret.slice(0, 6))
    expect(detail.length).toBeLessThanOrEqual(300)
  })

  it('scrubs a secret that the server escaped, once decoded', () => {
    const secret = 'ab+cd/ef=='
    const body = '{"error":"bad secret ab\\u002Bcd\\/ef=="}'
    expect(JSON.parse(body)).toEqual({ error: `bad secret ${secret}` })
    const detail = describeBody(body, 'application/json', (text) => text.split(secret).join('***'))
    expect(detail).toBe('bad secret ***')
  })

  it('scrubs an escaped secret from the field names it quotes, once decoded', () => {
    const detail = describeBody('{"ab\\u002Bcd":1}', 'application/json', (text) =>
      text.split('ab+cd').join('***'),
    )
    expect(detail).toBe('a JSON body without an error message (fields: ***)')
  })
})
