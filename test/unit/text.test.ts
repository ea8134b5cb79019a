import { describe, expect, it } from '@jest/globals'
import { countTokens, oneLine, truncate } from '../../src/text.js'

describe('text', () => {
  it('cuts a long text to its limit, marked with ...', () => {
    expect(truncate('abcdefghij', 10)).toBe('abcdefghij')
    expect(truncate('abcdefghijk', 10)).toBe('abcdefg...')
  })

  it('never cuts a character made of two UTF-16 units in half', () => {
    expect(truncate('ab😀cdef', 5)).toBe('ab...')
    expect(truncate('a😀bcdef', 5)).toBe('a...')
    expect(truncate('😀'.repeat(10), 8)).toBe('😀😀...')
  })

  it('puts text on one line', () => {
    expect(oneLine(' a\r\n\tb\u0085c ')).toBe('a b c')
  })

  it('counts tokens', () => {
    expect([0, 1, 2].map(countTokens)).toEqual(['0 tokens', '1 token', '2 tokens'])
  })
})
