import { describe, expect, it } from '@jest/globals'
import { Secrets } from '../../../../src/shared/secrets.js'
import { recordingRunner } from '../../../fixtures/runner.js'
import { recordingSecrets } from '../../../fixtures/secrets.js'

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

  it.each([
    'access_token',
    'accessToken',
    'refresh_token',
    'refreshToken',
    'id_token',
    'secret',
    'clientSecret',
    'tokenValue',
  ])('masks and scrubs the %s field of an answer', (field) => {
    const { secrets, masked } = recordingSecrets()
    secrets.addFrom({ name: 'gw-name-1234', records: [{ [field]: `value-of-${field}` }] })
    expect(masked).toEqual([`value-of-${field}`])
    expect(secrets.scrub(`x value-of-${field} gw-name-1234 y`)).toBe('x *** gw-name-1234 y')
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

  const b64 = (text: string) => Buffer.from(text).toString('base64')
  const b64url = (text: string) => Buffer.from(text).toString('base64url')
  it.each([
    ['base64', b64(SECRET)],
    ['base64 without its padding', b64(SECRET).replace(/=+$/, '')],
    ['base64url, unpadded', b64url(SECRET)],
    ['hex', Buffer.from(SECRET).toString('hex')],
    ['upper-case hex', Buffer.from(SECRET).toString('hex').toUpperCase()],
    [
      'JSON \\u escapes',
      Array.from(SECRET, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
    ],
    ['base64 of client-1:secret (a Basic credential)', b64(`client-1:${SECRET}`)],
    [
      'base64url of the secret inside a longer value',
      b64url(`{"id":"client-1","secret":"${SECRET}"}`),
    ],
  ])('scrubs the client secret echoed as %s, by the one rule', (_, echoed) => {
    const scrubbed = setup().scrub(`rejected: ${echoed}.`)
    expect(scrubbed).toBe('rejected: ***.')
  })

  it('leaves runs that decode to no secret as they are: ids, paths, other base64', () => {
    const text = `GET /api/tokens/123e4567-e89b-42d3-a456-426614174000 ${b64('a harmless note')} deadbeefdeadbeef`
    expect(setup().scrub(text)).toBe(text)
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

  it('masks every secret field of an answer, and scrubs it whole; only what is sent, in pieces too', () => {
    const { secrets, masked } = recordingSecrets()
    secrets.addFrom({
      access_token: 'access-token-abcdefgh',
      nested: [{ tokenValue: 'gw-value-12345678' }],
    })
    expect(masked).toEqual(['access-token-abcdefgh', 'gw-value-12345678'])
    expect(secrets.scrub('x access-token-abcdefgh y')).toBe('x *** y')
    expect(secrets.scrub('x token-abcdefgh y')).toBe('x token-abcdefgh y')
    expect(secrets.scrub('x value-12345678 y')).toBe('x value-12345678 y')
    // Once sent (the call loop registers the access token it uses), pieces of it too.
    secrets.add('access-token-abcdefgh', 'sent')
    expect(secrets.scrub('x token-abcdefgh y')).toBe('x *** y')
  })

  it('removes a run of exactly 8 characters of a sent secret, and leaves a run of 7 alone', () => {
    const { secrets } = recordingSecrets()
    secrets.add('abcdefghijklmnop')
    expect(secrets.scrub('x bcdefgh y')).toBe('x bcdefgh y')
    expect(secrets.scrub('x bcdefghi y')).toBe('x *** y')
  })

  it('scrubs a refresh token in its exact forms: the action never sends it', () => {
    const { secrets } = recordingSecrets()
    secrets.addFrom({ refresh_token: 'refresh-token-abcdefgh' })
    expect(secrets.scrub('echo: refresh-token-abcdefgh.')).toBe('echo: ***.')
    expect(secrets.scrub('echo: token-abcdefgh.')).toBe('echo: token-abcdefgh.')
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

describe('Secrets: bounded, and blind to what shows as nothing', () => {
  it.each([
    ['a zero-width space', '\u200b'],
    ['a soft hyphen', '\u00ad'],
    ['a word joiner', '\u2060'],
    ['a zero-width joiner', '\u200d'],
  ])('scrubs the client secret echoed with %s between its characters', (_, between) => {
    const { secrets } = recordingSecrets()
    secrets.add('cs_Sup3rS3cretValue')
    const echoed = Array.from('cs_Sup3rS3cretValue').join(between)
    expect(secrets.scrub(`echo: ${echoed}!`)).toBe('echo: ***!')
    // Other text, with those characters in it, stays as it is.
    expect(secrets.scrub(`ok${between}text`)).toBe(`ok${between}text`)
  })

  it('takes an 18 MB refresh token from an answer without cutting it into pieces', () => {
    const { secrets, masked } = recordingSecrets()
    const huge = `rt_${'x'.repeat(18_000_000)}`
    secrets.addFrom({ error: 'busy', refresh_token: huge })
    expect(masked).toHaveLength(1)
    expect(secrets.scrub('a message')).toBe('a message')
    expect(secrets.scrub(`echo ${huge} end`)).toBe('echo *** end')
  })

  it('takes an answer that is one long JSON string as no record, in no time', () => {
    const { secrets, masked } = recordingSecrets()
    const started = Date.now()
    secrets.addFrom('x'.repeat(2_000_000))
    // Going over its characters as fields took 3 s.
    expect(Date.now() - started).toBeLessThan(1_000)
    expect(masked).toEqual([])
  })

  it('scrubs a long word in time linear in its length (64 KB of one word took 5 s)', () => {
    const { secrets } = recordingSecrets()
    secrets.add('client-secret-value-1234')
    const text = `${'A'.repeat(128 * 1024)} 100%25`
    const started = Date.now()
    expect(secrets.scrub(text)).toBe(text)
    // About 0.2 s; a pattern that went over the word once per character would take 20 s.
    expect(Date.now() - started).toBeLessThan(5_000)
  })

  it('cuts a long sent value into pieces from its first 16 KiB only', () => {
    const { secrets } = recordingSecrets()
    const head = Array.from({ length: 16 * 1024 }, (_, i) =>
      String.fromCharCode(97 + (i % 26)),
    ).join('')
    secrets.add(`${head}ZZZZZZZZZZ-the-tail`)
    expect(secrets.scrub('x ZZZZZZZZ-the-tail y')).toBe('x ZZZZZZZZ-the-tail y')
    expect(secrets.scrub(`x ${head.slice(100, 120)} y`)).toBe('x *** y')
  })
})

describe('Secrets: values of several lines, and blank ones (case 4 of issue 18)', () => {
  it('masks a value of several lines whole and line by line', () => {
    const { secrets, masked } = recordingSecrets()
    secrets.add('line-one\nline-two\r\nline-three\n', 'received')
    expect(masked).toEqual([
      'line-one\nline-two\r\nline-three\n',
      'line-one',
      'line-two',
      'line-three',
    ])
    expect(secrets.scrub('echo line-two')).toBe('echo ***')
  })

  it('masks no blank value, whole or as a line', () => {
    const { secrets, masked } = recordingSecrets()
    secrets.add('   ', 'received')
    secrets.add('\t\n', 'received')
    secrets.add('a-line\n   \nb-line', 'received')
    expect(masked).toEqual(['a-line\n   \nb-line', 'a-line', 'b-line'])
  })
})

// As both steps make them: masked by the runner (runner.setSecret) the moment each is known.
describe('Secrets through a runner', () => {
  it('hands each secret added to runner.setSecret, once, as it is added', () => {
    const runner = recordingRunner()
    const secrets = new Secrets(runner.setSecret)
    secrets.add('first-secret')
    expect(runner.masked).toEqual(['first-secret'])
    secrets.add('second-secret', 'received')
    secrets.add('first-secret')
    expect(runner.masked).toEqual(['first-secret', 'second-secret'])
    expect(runner.events).toEqual(['mask first-secret', 'mask second-secret'])
  })

  it('hands on the secrets found in an answer, and scrubs what it masked', () => {
    const runner = recordingRunner()
    const secrets = new Secrets(runner.setSecret)
    secrets.addFrom({ id: 'x', tokenValue: 'eyJ.gateway.value' })
    expect(runner.masked).toEqual(['eyJ.gateway.value'])
    expect(secrets.scrub('value eyJ.gateway.value here')).toBe('value *** here')
  })

  it('masks no blank value', () => {
    const runner = recordingRunner()
    const secrets = new Secrets(runner.setSecret)
    secrets.add('   ')
    secrets.add(undefined)
    expect(runner.masked).toEqual([])
  })
})
