import { describe, expect, it } from '@jest/globals'
import { recordingSecrets } from '../../fixtures/secrets.js'

describe('Secrets: where a piece of a sent secret is, and what is left around it', () => {
  const setup = () => {
    const { secrets } = recordingSecrets()
    secrets.add('abcdefghijklmnop')
    return secrets
  }

  it.each([
    ['the whole text, exactly 8 characters', 'bcdefghi', '***'],
    ['the whole text, 7 characters', 'bcdefgh', 'bcdefgh'],
    ['the start of the text', 'bcdefghi rest', '*** rest'],
    ['the middle of the text', 'abc bcdefghi def', 'abc *** def'],
    ['the end of the text, and of the secret', 'x ijklmnop', 'x ***'],
    ['two places', 'bcdefghi and cdefghij.', '*** and ***.'],
  ])('scrubs a piece that is %s', (_, text, scrubbed) => {
    expect(setup().scrub(text)).toBe(scrubbed)
  })

  it('scrubs a sent secret with spaces and accents, echoed with zero-width spaces', () => {
    const { secrets } = recordingSecrets()
    secrets.add('clé secrète n° 42')
    const echoed = Array.from('clésecrèten°42').join('\u200b')
    expect(secrets.scrub(`echo: ${echoed}!`)).toBe('echo: ***!')
  })
})

describe('Secrets: received secrets in their URL-encoded forms', () => {
  it('scrubs lower-case %xx even where the escapes before it cannot be decoded', () => {
    const { secrets } = recordingSecrets()
    secrets.add('/abc-secret-value', 'received')
    // %e9 is Latin-1, no UTF-8: the run %e9%2f stays as it is, the form is what is found.
    expect(secrets.scrub('q=caf%e9%2fabc-secret-value')).toBe('q=caf%e9***')
  })

  it.each([
    ['upper-case %xx', 'my%2Fsecret+value'],
    ['lower-case %xx', 'my%2fsecret+value'],
  ])('scrubs a secret with + for its space and %s', (_, shown) => {
    const { secrets } = recordingSecrets()
    secrets.add('my/secret value', 'received')
    expect(secrets.scrub(`a=${shown}&b=1`)).toBe('a=***&b=1')
  })

  it.each([
    ['upper-case', 'p%C3%A4/ss-1234'],
    ['lower-case', 'p%c3%a4/ss-1234'],
  ])('scrubs a secret whose character of two UTF-8 bytes is %s %xx', (_, shown) => {
    const { secrets } = recordingSecrets()
    secrets.add('pä/ss-1234', 'received')
    expect(secrets.scrub(`path ${shown}.`)).toBe('path ***.')
  })
})

describe('Secrets: received secrets shown as HTML character references', () => {
  const SECRET = `x<y&z>"q'-secret`

  it.each([
    ['lower-case', 'x&lt;y&amp;z&gt;&quot;q&apos;-secret'],
    ['upper-case', 'x&LT;y&AMP;z&GT;&QUOT;q&APOS;-secret'],
    ['mixed-case', 'x&Lt;y&Amp;z&gT;&Quot;q&aPos;-secret'],
  ])('scrubs a secret shown with %s named references', (_, shown) => {
    const { secrets } = recordingSecrets()
    secrets.add(SECRET, 'received')
    expect(secrets.scrub(`<p>${shown}</p>`)).toBe('<p>***</p>')
  })

  it.each([
    ['decimal', 'ab&#1114111;cd-secret'],
    ['hexadecimal', 'ab&#x10FFFF;cd-secret'],
  ])('decodes a %s reference to the last code point, U+10FFFF', (_, shown) => {
    const { secrets } = recordingSecrets()
    secrets.add('ab\u{10FFFF}cd-secret', 'received')
    expect(secrets.scrub(`echo ${shown}`)).toBe('echo ***')
  })

  it('leaves a reference beyond U+10FFFF as it is', () => {
    const { secrets } = recordingSecrets()
    secrets.add('some-secret', 'received')
    const text = 'a &#1114112; b &#x110000; c &#9999999; some-secret'
    expect(secrets.scrub(text)).toBe('a &#1114112; b &#x110000; c &#9999999; ***')
  })
})
