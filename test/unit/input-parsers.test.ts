// Each input parser on both sides of its rule: what it refuses, with the exact message, and what it accepts.
import { describe, expect, it } from '@jest/globals'
import { InputError } from '../../src/errors.js'
import {
  readDuration,
  readEnvName,
  readInteger,
  readNameFilter,
  readProjectId,
  readRequiredName,
  readTokenId,
  readUrl,
  withoutTrailingSlash,
} from '../../src/input-parsers.js'

/** The InputError that `parse` throws. */
function refusal(parse: () => unknown): InputError {
  try {
    parse()
  } catch (error) {
    if (error instanceof InputError) return error
    throw error
  }
  throw new Error('expected an InputError')
}

describe('readEnvName', () => {
  const EVERY_STEP = 'it would change how every later step runs'
  const LINKER = 'change how the dynamic linker loads every program in later steps'
  const MAC_LINKER = 'change how the macOS dynamic linker loads every program in later steps'
  const PROXY = 'names ending in _PROXY change where later steps send their network traffic'
  const RUNNER = 'belong to the runner'

  it.each<[string, string]>([
    ['PATH', EVERY_STEP],
    ['path', EVERY_STEP],
    ['Path', EVERY_STEP],
    ['HOME', EVERY_STEP],
    ['SHELL', EVERY_STEP],
    ['ENV', EVERY_STEP],
    ['IFS', EVERY_STEP],
    ['ifs', EVERY_STEP],
    ['CDPATH', EVERY_STEP],
    ['BASH_ENV', EVERY_STEP],
    ['SHELLOPTS', EVERY_STEP],
    ['PS4', EVERY_STEP],
    ['PROMPT_COMMAND', EVERY_STEP],
    ['GCONV_PATH', EVERY_STEP],
    ['LD_PRELOAD', `names starting with LD_ ${LINKER}`],
    ['ld_library_path', `names starting with LD_ ${LINKER}`],
    ['LD_AUDIT', `names starting with LD_ ${LINKER}`],
    ['DYLD_INSERT_LIBRARIES', `names starting with DYLD_ ${MAC_LINKER}`],
    ['GIT_SSH_COMMAND', 'names starting with GIT_ change how git runs in later steps'],
    ['git_dir', 'names starting with GIT_ change how git runs in later steps'],
    ['NODE_OPTIONS', 'names starting with NODE_ change how Node.js runs in later steps'],
    [
      'NODE_TLS_REJECT_UNAUTHORIZED',
      'names starting with NODE_ change how Node.js runs in later steps',
    ],
    ['Node_Path', 'names starting with NODE_ change how Node.js runs in later steps'],
    ['PYTHONPATH', 'names starting with PYTHON change how Python runs in later steps'],
    ['pythonstartup', 'names starting with PYTHON change how Python runs in later steps'],
    ['PERL5OPT', 'names starting with PERL change how Perl runs in later steps'],
    ['PERLLIB', 'names starting with PERL change how Perl runs in later steps'],
    ['RUBYOPT', 'names starting with RUBY change how Ruby runs in later steps'],
    ['JAVA_TOOL_OPTIONS', 'names starting with JAVA_ change how Java runs in later steps'],
    ['_JAVA_OPTIONS', 'names starting with _JAVA_ change how Java runs in later steps'],
    ['DOTNET_STARTUP_HOOKS', 'names starting with DOTNET_ change how .NET runs in later steps'],
    ['SSL_CERT_FILE', 'names starting with SSL_ change which certificates later steps trust'],
    ['ssl_cert_dir', 'names starting with SSL_ change which certificates later steps trust'],
    ['HTTPS_PROXY', PROXY],
    ['http_proxy', PROXY],
    ['NO_PROXY', PROXY],
    ['ALL_PROXY', PROXY],
    ['Ftp_Proxy', PROXY],
    ['GITHUB_TOKEN', `names starting with GITHUB_ ${RUNNER}`],
    ['github_path', `names starting with GITHUB_ ${RUNNER}`],
    ['RUNNER_DEBUG', `names starting with RUNNER_ ${RUNNER}`],
    ['ACTIONS_STEP_DEBUG', `names starting with ACTIONS_ ${RUNNER}`],
    ['INPUT_NAME', `names starting with INPUT_ ${RUNNER}`],
    ['STATE_tokenId', `names starting with STATE_ ${RUNNER}`],
  ])('refuses %s: %s', (name, why) => {
    expect(refusal(() => readEnvName(name)).message).toBe(
      `Input 'envName' must not be ${name}: ${why}. Choose a name of your own, like YOURSERVICE_GATEWAY_TOKEN.`,
    )
  })

  it.each([
    'MEDIATOR_GATEWAY_TOKEN',
    'ACME_GATEWAY_TOKEN',
    'GATEWAY_TOKEN',
    'NOMAD_VAR_gateway_token',
    'MY_NODE', // NODE_ only as a prefix
    'NODE', // NODE_ with its underscore
    'PROXY_NAME', // _PROXY only as a suffix
    'MY_PROXY_URL',
    'PROXY',
    'GITLAB_TOKEN', // GIT_ with its underscore
    'GIT',
    'LDAP_TOKEN', // LD_ with its underscore
    'JAVASCRIPT_TOKEN', // JAVA_ with its underscore
    'SSLTOKEN',
    'MY_PATH',
    'SHELL_TOKEN',
    'HOME_TOKEN',
    'ENVIRONMENT',
    'RUNNERS_TOKEN',
    '_TOKEN',
    'token',
  ])('accepts %s', (name) => {
    expect(readEnvName(name)).toBe(name)
  })

  it('reads an empty envName as none', () => {
    expect(readEnvName('')).toBeUndefined()
  })

  it.each(['MY-TOKEN', '1TOKEN', 'MY TOKEN', 'TOKEN=1', 'TOKEN\n', 'ÄTOKEN', '$TOKEN'])(
    'refuses %j, not a variable name',
    (name) => {
      expect(refusal(() => readEnvName(name)).message).toBe(
        `Input 'envName' must be an environment variable name (letters, digits and _, not starting with a digit); got ${JSON.stringify(name)}.`,
      )
    },
  )
})

describe('readUrl', () => {
  const baseUrl = (raw: string) => withoutTrailingSlash(readUrl('baseUrl', raw, 'the base URL'))
  const HTTPS =
    "Input 'baseUrl' must use https (http only for localhost, 127.0.0.0/8 and [::1]); got"

  it.each<[string, string]>([
    ['http://localhost', 'http://localhost'],
    ['http://LOCALHOST:8080/', 'http://localhost:8080'],
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
    ['http://127.255.0.1/api/', 'http://127.255.0.1/api'],
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
    ].map((raw): [string, string] => [
      raw,
      "Input 'baseUrl' must not contain a user name or password: the action authenticates with clientId and clientSecret.",
    ]),
    ...['https://api.example.com/v1?key=k3y', 'https://api.example.com/v1#k3y'].map(
      (raw): [string, string] => [
        raw,
        'Input \'baseUrl\' must not have a query string or fragment (not shown here); got one after "https://api.example.com/v1".',
      ],
    ),
  ])('refuses %j', (raw, message) => {
    expect(refusal(() => baseUrl(raw)).message).toBe(message)
  })
})

describe('readInteger', () => {
  it.each(['0', '7', '10', '007'])('accepts %j', (raw) => {
    expect(readInteger('retries', raw, 0, 10, 'a whole number')).toBe(Number(raw))
  })

  it.each(['', '-1', '11', '3.5', ' 3', '3 ', '+3', '1e1', '0x1', '٣', 'three'])(
    'refuses %j',
    (raw) => {
      expect(refusal(() => readInteger('retries', raw, 0, 10, 'a whole number')).message).toBe(
        `Input 'retries' must be a whole number from 0 to 10; got ${JSON.stringify(raw)}.`,
      )
    },
  )
})

describe('readDuration', () => {
  it.each<[string, number]>([
    ['1m', 60_000],
    ['90m', 90 * 60_000],
    ['12h', 12 * 3_600_000],
    ['30d', 30 * 86_400_000],
    ['2w', 14 * 86_400_000],
  ])('reads %s as %d ms', (raw, ms) => {
    expect(readDuration(raw)).toEqual({ text: raw, ms })
  })

  it.each(['0d', '30', '30s', '1.5h', '1y', '30D', '-1d', ' 30d', '30d ', 'd', '00m'])(
    'refuses %j',
    (raw) => {
      expect(refusal(() => readDuration(raw)).message).toBe(
        `Input 'olderThan' must be a whole number and a unit, m, h, d or w (90m, 12h, 30d, 2w); got ${JSON.stringify(raw)}.`,
      )
    },
  )
})

describe('names and ids', () => {
  const CONTROL = "Input 'name' must not hold control characters (line breaks, tabs); got"

  it.each([
    ['"a\\nb"', 'a\nb'],
    ['"a\\rb"', 'a\rb'],
    ['"a\\tb"', 'a\tb'],
    ['"a\\u0000b"', 'a\u0000b'],
    ['"a\\u007fb"', 'a\u007fb'],
    ['"a\\u0085b"', 'a\u0085b'],
    ['"a\\u009fb"', 'a\u009fb'],
  ])('refuses the name %s', (quoted, name) => {
    expect(refusal(() => readRequiredName(name, 'x')).message).toBe(`${CONTROL} ${quoted}.`)
    expect(refusal(() => readNameFilter(name)).message).toBe(`${CONTROL} ${quoted}.`)
  })

  it.each(['ci-deploy', 'ci deploy', ' padded ', 'déploiement ✓', '日本語', '🚀', 'a\u00a0b'])(
    'accepts the name %j',
    (name) => {
      expect(readRequiredName(name, 'x')).toBe(name)
      expect(readNameFilter(name)).toBe(name)
    },
  )

  it('reads an empty filter as none, and a long bad value cut short in the message', () => {
    expect(readNameFilter('')).toBeUndefined()
    expect(readProjectId('')).toBeUndefined()
    expect(refusal(() => readTokenId('x'.repeat(500))).message).toBe(
      `Input 'tokenId' must be a UUID like 123e4567-e89b-42d3-a456-426614174000; got "${'x'.repeat(77)}...".`,
    )
  })

  const UUID = '123e4567-e89b-42d3-a456-426614174000'
  it.each([UUID, UUID.toUpperCase(), '00000000-0000-0000-0000-000000000000'])(
    'accepts the id %s',
    (id) => {
      expect(readTokenId(id)).toBe(id)
      expect(readProjectId(id)).toBe(id)
    },
  )

  it.each([
    '42',
    '.',
    '..',
    `${UUID}x`,
    `${UUID}/..`,
    `${UUID}\n`,
    `x${UUID}`,
    UUID.slice(1),
    `{${UUID}}`,
    UUID.replaceAll('-', ''),
    UUID.replace('e', 'g'),
  ])('refuses the id %j', (id) => {
    const got = `got ${JSON.stringify(id)}.`
    expect(refusal(() => readTokenId(id)).message).toBe(
      `Input 'tokenId' must be a UUID like 123e4567-e89b-42d3-a456-426614174000; ${got}`,
    )
    expect(refusal(() => readProjectId(id)).message).toBe(
      `Input 'expectedProjectId' must be a project id (a UUID) like 6f1c2a8e-3b4d-4e5f-9a0b-1c2d3e4f5a6b; ${got}`,
    )
  })
})
