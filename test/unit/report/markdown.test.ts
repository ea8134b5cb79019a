// Markdown for the job summary: text from outside escaped, and cut where nothing is split.
import { describe, expect, it } from '@jest/globals'
import { cutMarkdown, escapeMarkdown } from '../../../src/report/markdown.js'

describe('escapeMarkdown', () => {
  it('escapes what could break a table or add markup', () => {
    expect(escapeMarkdown('a|b')).toBe('a&#124;b')
    for (const c of '&<>"`\\*[]~$') expect(escapeMarkdown(c)).toBe(`&#${c.charCodeAt(0)};`)
    // `_` only where it could start or end emphasis.
    expect(escapeMarkdown('GW_TOKEN a_b _x_ __y')).toBe('GW_TOKEN a_b &#95;x&#95; &#95;&#95;y')
    // Between two digits, or a digit and a letter, `_` cannot start or end emphasis either.
    expect(escapeMarkdown('v1_2 b_3 4_c')).toBe('v1_2 b_3 4_c')
  })
})

describe('cutMarkdown', () => {
  it('cuts Markdown between characters, escapes and tags, closing the tags left open', () => {
    expect(cutMarkdown('ab<code>cd&#124;ef</code>gh', 20)).toBe('ab<code>cd...</code>')
    expect(cutMarkdown('ab<code>cd&#124;ef</code>gh', 26)).toBe('ab<code>cd&#124;...</code>')
    expect(cutMarkdown('ab<code>c</code>d', 19)).toBe('ab<code>c</code>d')
    expect(cutMarkdown('€€€€', 8)).toBe('€...')
    expect(cutMarkdown('😀😀', 6)).toBe('...')
    expect(cutMarkdown('abc', 2)).toBeUndefined()
    // What fits exactly is kept whole; a named entity is one piece; a closed tag stays closed.
    expect(cutMarkdown('abc', 3)).toBe('abc')
    expect(cutMarkdown('ab&amp;cd', 7)).toBe('ab...')
    expect(cutMarkdown(`<code>a</code>${'x'.repeat(50)}`, 25)).toBe('<code>a</code>xxxxxxxx...')
  })
})
