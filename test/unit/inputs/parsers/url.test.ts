// readUrl: https required, http for loopback hosts only (look-alikes refused), no
// credentials, no query or fragment; read without a trailing slash.
import { describe, expect, it } from '@jest/globals'
import { readUrl } from '../../../../src/inputs/parsers.js'
import { refusal } from '../../../fixtures/input-error.js'

describe('readUrl', () => {
  const baseUrl = (raw: string) => readUrl(raw, 'baseUrl', 'the base URL')
  const HTTPS =
    "Input 'baseUrl' must use https (http only for localhost, 127.0.0.0/8 and [::1]); got"

  it.each<[string, string]>([
    ['http://localhost', 'http://localhost'],
    ['http://LOCALHOST:8080/', 'http://localhost:8080'],
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
    ['http://127.255.0.1/api/', 'http://127.255.0.1/api'],
    ['http://127.0.0.0', 'http://127.0.0.0'], // both ends of 127.0.0.0/8
    ['http://127.255.255.255', 'http://127.255.255.255'],
    ['http://0x7f.1', 'http://127.0.0.1'], // WHATWG reads hex and octal parts too
    ['http://0177.0.0.1', 'http://127.0.0.1'],
    ['http://127.0.0.1.', 'http://127.0.0.1'], // a trailing dot is still the address
    ['http://LocalHost', 'http://localhost'],
    ['http://127.1', 'http://127.0.0.1'], // WHATWG URL reads 127.1 as 127.0.0.1: loopback
    ['http://2130706433', 'http://127.0.0.1'],
    ['http://[::1]:9000', 'http://[::1]:9000'],
    ['http://[0:0:0:0:0:0:0:1]', 'http://[::1]'],
    ['https://127.0.0.1.nip.io', 'https://127.0.0.1.nip.io'], // look-alikes are fine over https
    ['https://localhost.example.com/v1', 'https://localhost.example.com/v1'],
    ['https://0.0.0.0', 'https://0.0.0.0'],
    ['HTTPS://API.EXAMPLE.COM/Platform//', 'https://api.example.com/Platform'],
  ])('accepts %s, read as %s', (raw, expected) => {
    expect(baseUrl(raw)).toBe(expected)
  })

  it.each([
    'http://127.0.0.1.nip.io',
    'http://127.0.0.1.example.com',
    'http://localhost.example.com',
    'http://mylocalhost',
    'http://0.0.0.0',
    'http://10.0.0.1',
    'http://128.0.0.1',
    'http://126.255.255.255',
    'http://[::2]',
    'http://[::ffff:127.0.0.1]',
    'http://[::ffff:7f00:1]',
    'http://[::]',
    'http://0', // read as 0.0.0.0
    'http://localhost%2eexample.com', // read as localhost.example.com
    'http://127.0.0.1%2eexample.com',
    'http://api.example.com',
    'ws://localhost',
    'ftp://127.0.0.1',
    'file:///etc/passwd',
  ])('refuses %s: not https, and not http to a loopback host', (raw) => {
    expect(refusal(() => baseUrl(raw)).message).toBe(`${HTTPS} ${JSON.stringify(raw)}.`)
  })

  it.each<[string, string]>([
    ['', "Input 'baseUrl' is required: the base URL, like https://api.example.com."],
    ...['api.example.com', '/v1', '//api.example.com', 'https://', 'https://exa mple.com'].map(
      (raw): [string, string] => [
        raw,
        `Input 'baseUrl' must be an absolute URL like https://api.example.com; got ${JSON.stringify(raw)}.`,
      ],
    ),
    ...[
      'https://u:p@api.example.com',
      'https://u@api.example.com',
      'https://:p@api.example.com',
      'http://127.0.0.1:80@api.example.com', // a loopback-looking user name, not the host
    ].map((raw): [string, string] => [
      raw,
      "Input 'baseUrl' must not contain a user name or password: the action authenticates with clientId and clientSecret.",
    ]),
    ...[
      'https://api.example.com/v1?key=k3y',
      'https://api.example.com/v1#k3y',
      'https://api.example.com/v1#@127.0.0.1',
    ].map((raw): [string, string] => [
      raw,
      'Input \'baseUrl\' must not have a query string or fragment (not shown here); got one after "https://api.example.com/v1".',
    ]),
  ])('refuses %j', (raw, message) => {
    expect(refusal(() => baseUrl(raw)).message).toBe(message)
  })
})
