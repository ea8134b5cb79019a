import { describe, expect, it } from '@jest/globals'
import { recordingSecrets } from '../../../fixtures/secrets.js'

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

describe('Secrets: one rule for every encoding of a sent secret (issue 32)', () => {
  const SECRET = 'Zq9 x/Yw+7Lm&Rt_42kP'
  /** The bytes of `text` as hex pairs, each written as `pair` says, joined by `between`. */
  const pairs = (text: string, between: string, pair = (hex: string) => hex) =>
    Array.from(Buffer.from(text), (b) => pair(b.toString(16).padStart(2, '0'))).join(between)
  const scrub = (secret: string, text: string) => {
    const { secrets } = recordingSecrets()
    secrets.add(secret)
    return secrets.scrub(text)
  }

  it.each([
    ['hex pairs split by spaces', pairs(SECRET, ' ')],
    ['hex pairs split by colons', pairs(SECRET, ':')],
    ['hex pairs split by dashes', pairs(SECRET, '-')],
    ['hex pairs split by commas', pairs(SECRET, ',')],
    ['hex pairs split by a comma and a space', pairs(SECRET, ', ')],
    ['upper-case hex pairs split by colons', pairs(SECRET, ':').toUpperCase()],
    [
      'hex pairs over two lines',
      `${pairs(SECRET.slice(0, 9), ' ')}\n${pairs(SECRET.slice(9), ' ')}`,
    ],
    ['0x pairs split by spaces', pairs(SECRET, ' ', (h) => `0x${h}`)],
    ['0x pairs split by a comma and a space (a C array)', pairs(SECRET, ', ', (h) => `0x${h}`)],
    ['0x pairs run together', pairs(SECRET, '', (h) => `0x${h}`)],
    ['0X pairs, upper-case', pairs(SECRET, '', (h) => `0X${h.toUpperCase()}`)],
    [
      'hex words with a 0x now and then',
      `0x${pairs(SECRET.slice(0, 4), '')}0x${pairs(SECRET.slice(4), '')}`,
    ],
    ['\\x escapes', pairs(SECRET, '', (h) => `\\x${h}`)],
    ['\\x escapes, upper-case', pairs(SECRET, '', (h) => `\\x${h.toUpperCase()}`)],
    ['\\x escapes in a JSON string', pairs(SECRET, '', (h) => `\\\\x${h}`)],
  ])('scrubs the client secret echoed as %s', (_, echoed) => {
    expect(scrub(SECRET, `rejected: ${echoed}.`)).toBe('rejected: ***.')
    expect(scrub(SECRET, `rejected: ${echoed} added`)).toBe('rejected: *** added')
  })

  it('scrubs a piece of 8 characters of it written as split hex, and leaves 7 alone', () => {
    expect(scrub(SECRET, `was ${pairs(SECRET.slice(9, 17), ':')}!`)).toBe('was ***!')
    const seven = `was ${pairs(SECRET.slice(9, 16), ':')}!`
    expect(scrub(SECRET, seven)).toBe(seven)
  })

  const SHORT = 'k7#Qz9!'
  const b64 = (text: string) => Buffer.from(text).toString('base64')
  const percent = (text: string) => pairs(text, '', (h) => `%${h}`)
  it.each([
    ['as it is', SHORT],
    ['with a space in it', 'k7#Q z9!'],
    ['with zero-width spaces in it', Array.from(SHORT).join('\u200b')],
    ['hex', pairs(SHORT, '')],
    ['upper-case hex', pairs(SHORT, '').toUpperCase()],
    ['hex pairs split by colons', pairs(SHORT, ':')],
    ['0x pairs', pairs(SHORT, ' ', (h) => `0x${h}`)],
    ['\\x escapes', pairs(SHORT, '', (h) => `\\x${h}`)],
    ['base64', b64(SHORT)],
    ['base64 without its padding', b64(SHORT).replace(/=+$/, '')],
    ['base64url', Buffer.from(`>${SHORT}?`).toString('base64url')],
    ['lower-case %xx', percent(SHORT)],
    ['upper-case %xx', percent(SHORT).toUpperCase()],
    ['JSON \\u escapes', pairs(SHORT, '', (h) => `\\u00${h}`)],
    ['base64 of id:secret', b64(`ci-deployer:${SHORT}`)],
    ['hex of id:secret', pairs(`ci-deployer:${SHORT}`, '')],
  ])('scrubs a secret of 7 characters whole, echoed %s', (_, echoed) => {
    expect(scrub(SHORT, `bad secret ${echoed} for ci-deployer`)).toBe(
      'bad secret *** for ci-deployer',
    )
  })

  it('leaves what holds no secret: ordinary text, other hex, ids, dates', () => {
    const text = [
      'rejected: the client is unknown (code 5a, see docs).',
      'sha256 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
      'mac 00:1a:2b:3c:4d:5e, bytes 0x1f 0x2e 0x3d, escapes \\x41\\x42\\x43',
      'a dump de ad be ef ca fe ba be, words: added faded decade cafe',
      'id 123e4567-e89b-42d3-a456-426614174000 at 2026-03-01T10:00:00.123Z',
      `part of it: ${SHORT.slice(0, 6)} ${pairs(SHORT.slice(1), ':')} ${b64(SHORT.slice(0, 6))}`,
    ].join('\n')
    expect(scrub(SHORT, text)).toBe(text)
    expect(scrub(SECRET, text)).toBe(text)
  })
})

describe('Secrets: pieces of secrets of several lengths', () => {
  /** Secrets that scrub `abcdefghijklmnop` by pieces of 8, and `xyz12` (given with a space, so found in pieces, not whole) as one piece. */
  const twoLengths = (shortFirst = false) => {
    const { secrets } = recordingSecrets()
    const values = ['abcdefghijklmnop', 'xy z12']
    for (const value of shortFirst ? values.reverse() : values) secrets.add(value)
    return secrets
  }

  it('finds each sent secret by pieces of its own length: 8, or all of a shorter one', () => {
    const secrets = twoLengths()
    expect(secrets.scrub('say bcdefghi and xyz12.')).toBe('say *** and ***.')
    expect(secrets.scrub('say bcdefgh and xyz1 or yz12.')).toBe('say bcdefgh and xyz1 or yz12.')
    // At the end of the text, and at its start: no piece runs past either.
    expect(secrets.scrub('xyz12')).toBe('***')
    expect(secrets.scrub('ijklmnop')).toBe('***')
    expect(secrets.scrub('ends in jklmnop xyz12')).toBe('ends in jklmnop ***')
    expect(secrets.scrub('say xyz12')).toBe('say ***')
  })

  it('hides the longest piece that starts at a place, whichever secret came first', () => {
    for (const shortFirst of [false, true]) {
      const { secrets } = recordingSecrets()
      const values = ['abcdefghijklmnop', 'ab cde']
      for (const value of shortFirst ? values.reverse() : values) secrets.add(value)
      // `abcde` and `abcdefgh` both start at `a`: all 8 are hidden.
      expect(secrets.scrub('<abcdefgh>')).toBe('<***>')
    }
  })

  it('hides a long piece whole when a shorter one starts inside it', () => {
    const { secrets } = recordingSecrets()
    secrets.add('abcdefghijklmnop')
    // Found in pieces, not whole: its pieces are `cdef`.
    secrets.add('cd ef')
    expect(secrets.scrub('<abcdefgh>')).toBe('<***>')
    expect(secrets.scrub('<abcdefgh xyz>')).toBe('<*** xyz>')
  })

  it('hides pieces that touch as one, and pieces apart one by one', () => {
    const secrets = twoLengths(true)
    expect(secrets.scrub('<bcdefghixyz12>')).toBe('<***>')
    expect(secrets.scrub('<bcdefghi-xyz12>')).toBe('<***-***>')
  })

  it('takes no pieces of a value that is all + and spaces: it is scrubbed whole only', () => {
    const { secrets, masked } = recordingSecrets()
    secrets.add('+ +')
    secrets.add('   ')
    expect(masked).toEqual(['+ +'])
    expect(secrets.scrub('1 + 1 + 2, + +')).toBe('1 + 1 + 2, ***')
  })

  it('registers a sent value once: the call loop adds the access token before every call', () => {
    const { secrets } = recordingSecrets()
    const token = Array.from({ length: 16 * 1024 }, (_, i) => String.fromCharCode(33 + (i % 90)))
    const started = Date.now()
    for (let call = 0; call < 2_000; call++) secrets.add(token.join(''))
    // About 0.1 s; cutting it into pieces at every call took 10 s.
    expect(Date.now() - started).toBeLessThan(3_000)
  })
})

describe('Secrets: a run decoded is read as Latin-1 and as UTF-8', () => {
  it.each([
    ['hex', (text: string) => Buffer.from(text).toString('hex')],
    [
      'split hex',
      (text: string) =>
        Buffer.from(text)
          .toString('hex')
          .replace(/(..)(?!$)/g, '$1 '),
    ],
    ['base64', (text: string) => Buffer.from(text).toString('base64')],
  ])('scrubs a secret with accents echoed as %s of its UTF-8 bytes', (_, encode) => {
    const { secrets } = recordingSecrets()
    secrets.add('clé-secrète-42')
    expect(secrets.scrub(`echo ${encode('clé-secrète-42')}.`)).toBe('echo ***.')
    expect(secrets.scrub(`echo ${encode('é-secrè')}.`)).toBe(`echo ${encode('é-secrè')}.`)
  })

  it('scrubs a secret of Latin-1 characters echoed as its Latin-1 bytes', () => {
    const { secrets } = recordingSecrets()
    secrets.add('clé-secrète-42')
    const latin1 = Buffer.from('clé-secrète-42', 'latin1').toString('hex')
    expect(secrets.scrub(`echo ${latin1}.`)).toBe('echo ***.')
  })
})

describe('Secrets: encoded runs scrubbed in time linear in the text', () => {
  it.each([
    ['hex pairs split by colons', '5a:'],
    ['\\x escapes split by dashes, that never end a run', '\\x5a-'],
    ['0x pairs split by a comma and a space', '0x5a, '],
    ['escaped \\x escapes', '\\\\x5a'],
    ['hex words', 'deadbeef '],
  ])('64 KB of %s takes well under a second', (_, unit) => {
    const { secrets } = recordingSecrets()
    secrets.add('client-secret-value-1234')
    secrets.add('k7#Qz9!')
    const text = `${unit.repeat(Math.ceil((64 * 1024) / unit.length))}Z`
    const started = Date.now()
    expect(secrets.scrub(text)).toBe(text)
    // About 0.1 s; a pattern that went back over each run would take minutes.
    expect(Date.now() - started).toBeLessThan(3_000)
  })
})
