import { describe, expect, it } from '@jest/globals'
import { recordingSecrets } from '../fixtures/secrets.js'

describe('Secrets', () => {
  it('masks each secret once, and ignores empty values', () => {
    const { secrets, masked } = recordingSecrets()
    secrets.add('abc')
    secrets.add('abc')
    secrets.add('')
    secrets.add(undefined)
    expect(masked).toEqual(['abc'])
  })

  it('scrubs secrets, their JSON and URL forms, longest first', () => {
    const { secrets } = recordingSecrets()
    secrets.add('pa"ss/word')
    secrets.add('pa"ss/word-longer')
    expect(secrets.scrub('a pa"ss/word-longer b pa\\"ss/word c pa%22ss%2Fword d')).toBe(
      'a *** b *** c *** d',
    )
  })

  it('leaves text alone when it knows no secret', () => {
    const { secrets } = recordingSecrets()
    expect(secrets.scrub('nothing here')).toBe('nothing here')
  })

  it('scrubs a secret added after an earlier scrub', () => {
    const { secrets } = recordingSecrets()
    secrets.add('first-secret')
    expect(secrets.scrub('first-secret second-secret')).toBe('*** second-secret')
    secrets.add('second-secret')
    expect(secrets.scrub('first-secret second-secret')).toBe('*** ***')
  })
})

describe('Secrets: echoed forms', () => {
  const SECRET = 'Zq9 x/Yw+7Lm&Rt_42kP'
  const setup = () => {
    const { secrets } = recordingSecrets()
    secrets.add(SECRET)
    return secrets
  }
  const encode = (text: string) => encodeURIComponent(text)

  it.each([
    ['upper-case %xx', encode(SECRET)],
    ['lower-case %xx', encode(SECRET).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase())],
    ['+ for spaces', encode(SECRET).replace(/%20/g, '+')],
    ['/ left unencoded', encode(SECRET).replace(/%2F/g, '/')],
    ['HTML numeric entities', SECRET.replace(/./g, (c) => `&#${c.charCodeAt(0)};`)],
    ['HTML hex entities', SECRET.replace(/./g, (c) => `&#x${c.charCodeAt(0).toString(16)};`)],
    ['split over two lines', `${SECRET.slice(0, 10)}\n${SECRET.slice(10)}`],
    ['JSON-escaped', JSON.stringify(SECRET).slice(1, -1).replace('/', '\\/')],
  ])('scrubs the client secret echoed with %s', (_, echoed) => {
    const scrubbed = setup().scrub(`invalid secret "${echoed}" for client`)
    expect(scrubbed).toMatch(/^invalid secret ".*" for client$/)
    expect(scrubbed).toContain('***')
    for (let i = 0; i + 8 <= SECRET.length; i++) {
      const piece = SECRET.slice(i, i + 8)
      expect(scrubbed).not.toContain(piece)
    }
    expect(scrubbed).not.toContain('Zq9')
  })

  it('removes any run of 8 or more characters of a sent secret, not shorter ones', () => {
    const secrets = setup()
    expect(secrets.scrub('x Yw+7Lm&Rt y')).toBe('x *** y')
    // 7 characters of it, and common words: left alone.
    expect(secrets.scrub('x Yw+7Lm& y and 42kP')).toBe('x Yw+7Lm& y and 42kP')
  })

  it('scrubs token values the platform hands out in full only, to stay cheap', () => {
    const { secrets } = recordingSecrets()
    secrets.add('eyJ.token-value-12345', 'received')
    expect(secrets.scrub('a eyJ.token-value-12345 b')).toBe('a *** b')
    expect(secrets.scrub('a token-value-123 b')).toBe('a token-value-123 b')
  })

  it('leaves text with entities or escapes as it is when it holds no secret', () => {
    const secrets = setup()
    expect(secrets.scrub('a &amp; b %20 c &#65;')).toBe('a &amp; b %20 c &#65;')
  })

  it('treats the auth answer\u2019s tokens as sent, and token values as received', () => {
    const { secrets, masked } = recordingSecrets()
    secrets.addFrom({
      access_token: 'access-token-abcdefgh',
      nested: [{ tokenValue: 'gw-value-12345678' }],
    })
    expect(masked).toEqual(['access-token-abcdefgh', 'gw-value-12345678'])
    expect(secrets.scrub('x token-abcdefgh y')).toBe('x *** y')
    expect(secrets.scrub('x value-12345678 y')).toBe('x value-12345678 y')
  })

  it('removes a run of exactly 8 characters of a sent secret, and leaves a run of 7 alone', () => {
    const { secrets } = recordingSecrets()
    secrets.add('abcdefghijklmnop')
    expect(secrets.scrub('x bcdefgh y')).toBe('x bcdefgh y')
    expect(secrets.scrub('x bcdefghi y')).toBe('x *** y')
  })

  it('scrubs a refresh token piecewise too: the action may send it', () => {
    const { secrets } = recordingSecrets()
    secrets.addFrom({ refresh_token: 'refresh-token-abcdefgh' })
    expect(secrets.scrub('echo: token-abcdefgh.')).toBe('echo: ***.')
  })

  it('scrubs a received token value in its JSON-escaped and URL-encoded forms', () => {
    const { secrets } = recordingSecrets()
    const value = 'eyJ/ab+cd"ef g=='
    secrets.add(value, 'received')
    const url = encodeURIComponent(value)
    const forms = [
      value,
      JSON.stringify(value).slice(1, -1),
      JSON.stringify(value).slice(1, -1).replace('/', '\\/'),
      url,
      url.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase()),
      url.replace('%20', '+'),
    ]
    expect(forms.map((form) => secrets.scrub(`<${form}>`))).toEqual(forms.map(() => '<***>'))
  })

  it('leaves a received token value split over two lines, or a piece of it, as it is', () => {
    const { secrets } = recordingSecrets()
    secrets.add('gw-value-abcdefghijkl', 'received')
    expect(secrets.scrub('a gw-value-abc\ndefghijkl b')).toBe('a gw-value-abc\ndefghijkl b')
    expect(secrets.scrub('a value-abcdefghijkl b')).toBe('a value-abcdefghijkl b')
  })
})
