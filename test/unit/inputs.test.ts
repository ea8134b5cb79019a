import { describe, expect, it } from '@jest/globals'
import { InputError } from '../../src/errors.js'
import { INPUT_DEFAULTS, readInputs } from '../../src/inputs.js'
import type { CleanupTask, CreateTask, ListTask } from '../../src/task.js'
import { recordingSecrets } from '../fixtures/secrets.js'

const CONNECTION = {
  clientId: 'client-1',
  clientSecret: 's3cr3t-value',
  baseUrl: 'https://api.example.com',
  authUrl: 'https://auth.example.com',
}
const TOKEN_ID = '123e4567-e89b-42d3-a456-426614174000'

/** Reads inputs as the runner would give them: defaults filled in, then `given`. */
function read(given: Record<string, string>, defaults: Record<string, string> = INPUT_DEFAULTS) {
  const { secrets, masked } = recordingSecrets()
  const values: Record<string, string> = { ...defaults, ...CONNECTION, ...given }
  const inputs = readInputs((name) => values[name] ?? '', secrets)
  return { inputs, masked }
}

function failure(given: Record<string, string>): InputError {
  try {
    read(given)
  } catch (error) {
    if (error instanceof InputError) return error
    throw error
  }
  throw new Error('expected an InputError')
}

describe('readInputs', () => {
  it('masks clientSecret before anything else, even when another input is bad', () => {
    const { secrets, masked } = recordingSecrets()
    const values: Record<string, string> = { clientSecret: 'early-secret', operation: 'bogus' }
    expect(() => readInputs((name) => values[name] ?? '', secrets)).toThrow(InputError)
    expect(masked).toEqual(['early-secret'])
  })

  it('reads a create with the defaults of action.yml', () => {
    const { inputs } = read({ operation: 'create', name: 'ci-deploy' })
    const expected: CreateTask = {
      operation: 'create',
      name: 'ci-deploy',
      envName: undefined,
      ifExists: 'create',
      revokeOnExit: false,
      writeTokenFile: false,
    }
    expect(inputs.task).toEqual(expected)
    expect(inputs.connection).toEqual({
      clientId: 'client-1',
      clientSecret: 's3cr3t-value',
      baseUrl: 'https://api.example.com',
      authEndpoint: 'https://auth.example.com/idp/identity/resources/auth/v2/api-token',
      timeoutMs: 30_000,
      retries: 3,
      totalTimeoutMs: 900_000,
    })
    expect(inputs.expectedProjectId).toBeUndefined()
    expect(inputs.summary).toBe(true)
    expect(inputs.warnings).toEqual([])
  })

  it('applies the defaults itself when the runner did not (a local run)', () => {
    const { inputs } = read({ operation: 'list' }, {})
    const expected: ListTask = { operation: 'list', name: undefined, state: 'all' }
    expect(inputs.task).toEqual(expected)
    expect(inputs.connection.timeoutMs).toBe(30_000)
    expect(inputs.summary).toBe(true)
  })

  it('keeps a base URL path prefix and drops trailing slashes', () => {
    const { inputs } = read({ operation: 'list', baseUrl: 'https://example.com/platform/v1//' })
    expect(inputs.connection.baseUrl).toBe('https://example.com/platform/v1')
  })

  it('uses an authUrl that already ends in /api-token as the whole endpoint', () => {
    const authUrl = 'https://example.com/frontegg/identity/resources/auth/v2/api-token'
    const { inputs } = read({ operation: 'list', authUrl })
    expect(inputs.connection.authEndpoint).toBe(authUrl)
  })

  it('appends the spec path to an authUrl with a prefix', () => {
    const { inputs } = read({ operation: 'list', authUrl: 'https://example.com/auth/' })
    expect(inputs.connection.authEndpoint).toBe(
      'https://example.com/auth/idp/identity/resources/auth/v2/api-token',
    )
  })

  it.each([
    'http://localhost:8080',
    'http://127.0.0.1:3000',
    'http://127.5.6.7',
    'http://[::1]:9000',
  ])('allows http for the loopback address %s', (baseUrl) => {
    expect(read({ operation: 'list', baseUrl }).inputs.connection.baseUrl).toBe(baseUrl)
  })

  it('reads list filters and revoke ids', () => {
    expect(read({ operation: 'list', name: 'ci-*', state: 'active' }).inputs.task).toEqual({
      operation: 'list',
      name: 'ci-*',
      state: 'active',
    })
    expect(read({ operation: 'revoke', tokenId: TOKEN_ID }).inputs.task).toEqual({
      operation: 'revoke',
      tokenId: TOKEN_ID,
    })
  })

  it('accepts YAML booleans and whole numbers at the ends of their ranges', () => {
    const { inputs } = read({ operation: 'list', summary: 'False', timeout: '600', retries: '0' })
    expect(inputs.summary).toBe(false)
    expect(inputs.connection.timeoutMs).toBe(600_000)
    expect(inputs.connection.retries).toBe(0)
    expect(read({ operation: 'list', retries: '10' }).inputs.connection.retries).toBe(10)
  })

  it('warns about inputs the operation does not use, but not about defaults', () => {
    const { inputs } = read({ operation: 'create', name: 'x', tokenId: TOKEN_ID, state: 'active' })
    expect(inputs.warnings).toEqual([
      "Input 'state' is not used by operation create; it is ignored.",
      "Input 'tokenId' is not used by operation create; it is ignored.",
    ])
  })

  it('reads create options: ifExists and revokeOnExit', () => {
    const { inputs } = read({
      operation: 'create',
      name: 'x',
      ifExists: 'reuse',
      revokeOnExit: 'true',
    })
    expect(inputs.task).toMatchObject({ ifExists: 'reuse', revokeOnExit: true })
  })

  it('reads a cleanup', () => {
    const { inputs } = read({
      operation: 'cleanup',
      name: 'ci-*',
      olderThan: '30d',
      keep: '2',
      dryRun: 'true',
      concurrency: '8',
    })
    const expected: CleanupTask = {
      operation: 'cleanup',
      name: 'ci-*',
      olderThan: { text: '30d', ms: 30 * 86_400_000 },
      keep: 2,
      dryRun: true,
      concurrency: 8,
    }
    expect(inputs.task).toEqual(expected)
  })

  it.each([
    ['90m', 90 * 60_000],
    ['12h', 12 * 3_600_000],
    ['30d', 30 * 86_400_000],
    ['2w', 14 * 86_400_000],
  ])('reads olderThan %s', (olderThan, ms) => {
    expect(read({ operation: 'cleanup', olderThan }).inputs.task).toMatchObject({
      name: undefined,
      olderThan: { text: olderThan, ms },
      keep: 0,
      dryRun: false,
      concurrency: 4,
    })
  })

  it('accepts a cleanup by name alone', () => {
    expect(read({ operation: 'cleanup', name: 'ci-deploy' }).inputs.task).toMatchObject({
      name: 'ci-deploy',
      olderThan: undefined,
    })
  })

  it('accepts envName values of its own', () => {
    const { inputs } = read({ operation: 'create', name: 'x', envName: 'MEDIATOR_GATEWAY_TOKEN' })
    expect(inputs.task).toMatchObject({ envName: 'MEDIATOR_GATEWAY_TOKEN' })
  })

  describe('refuses, naming the input', () => {
    it.each<[string, Record<string, string>, string, RegExp]>([
      [
        'a missing operation',
        { operation: '' },
        'operation',
        /is required: one of create, list, revoke, cleanup/,
      ],
      [
        'an unknown operation',
        { operation: 'delete' },
        'operation',
        /must be one of create, list, revoke, cleanup; got "delete"/,
      ],
      ['a missing clientId', { operation: 'list', clientId: '' }, 'clientId', /required.*forks/],
      [
        'a missing clientSecret',
        { operation: 'list', clientSecret: '' },
        'clientSecret',
        /required.*forks/,
      ],
      ['a missing baseUrl', { operation: 'list', baseUrl: '' }, 'baseUrl', /is required/],
      [
        'a relative baseUrl',
        { operation: 'list', baseUrl: 'api.example.com' },
        'baseUrl',
        /absolute URL/,
      ],
      [
        'plain http to a remote host',
        { operation: 'list', baseUrl: 'http://api.example.com' },
        'baseUrl',
        /must use https/,
      ],
      [
        'another scheme',
        { operation: 'list', authUrl: 'ftp://auth.example.com' },
        'authUrl',
        /must use https/,
      ],
      [
        'credentials in a URL',
        { operation: 'list', authUrl: 'https://u:p@auth.example.com' },
        'authUrl',
        /user name or password/,
      ],
      [
        'a query string',
        { operation: 'list', baseUrl: 'https://api.example.com/?x=1' },
        'baseUrl',
        /query string/,
      ],
      [
        'a create without a name',
        { operation: 'create' },
        'name',
        /is required for this operation/,
      ],
      [
        'a name with a line break',
        { operation: 'create', name: 'a\nb' },
        'name',
        /control characters .*; got "a\\nb"/,
      ],
      [
        'a list filter with a tab',
        { operation: 'list', name: 'a\tb' },
        'name',
        /control characters/,
      ],
      [
        'a revoke without tokenId',
        { operation: 'revoke' },
        'tokenId',
        /is required for operation revoke/,
      ],
      [
        'a tokenId that is not a UUID',
        { operation: 'revoke', tokenId: '42' },
        'tokenId',
        /must be a UUID.*got "42"/,
      ],
      [
        'a state outside the list',
        { operation: 'list', state: 'expired' },
        'state',
        /active, revoked, all; got "expired"/,
      ],
      ['a timeout of 0', { operation: 'list', timeout: '0' }, 'timeout', /from 1 to 600; got "0"/],
      ['a timeout over 600', { operation: 'list', timeout: '601' }, 'timeout', /from 1 to 600/],
      [
        'retries over 10',
        { operation: 'list', retries: '11' },
        'retries',
        /whole number from 0 to 10; got "11"/,
      ],
      ['negative retries', { operation: 'list', retries: '-1' }, 'retries', /from 0 to 10/],
      [
        'a cleanup without a selector',
        { operation: 'cleanup' },
        'name',
        /^Input 'name' or 'olderThan' is required for operation cleanup: .* Nothing was revoked\.$/,
      ],
      [
        'olderThan without a unit',
        { operation: 'cleanup', olderThan: '30' },
        'olderThan',
        /m, h, d or w .*; got "30"/,
      ],
      ['olderThan in years', { operation: 'cleanup', olderThan: '1y' }, 'olderThan', /got "1y"/],
      ['olderThan of zero', { operation: 'cleanup', olderThan: '0d' }, 'olderThan', /got "0d"/],
      [
        'a negative keep',
        { operation: 'cleanup', name: 'x', keep: '-1' },
        'keep',
        /whole number from 0 to 1000/,
      ],
      [
        'concurrency 0',
        { operation: 'cleanup', name: 'x', concurrency: '0' },
        'concurrency',
        /from 1 to 32; got "0"/,
      ],
      [
        'concurrency 33',
        { operation: 'cleanup', name: 'x', concurrency: '33' },
        'concurrency',
        /from 1 to 32/,
      ],
      ['dryRun yes', { operation: 'cleanup', name: 'x', dryRun: 'yes' }, 'dryRun', /true or false/],
      [
        'an unknown ifExists',
        { operation: 'create', name: 'x', ifExists: 'replace' },
        'ifExists',
        /create, reuse, fail; got "replace"/,
      ],
      [
        'revokeOnExit 1',
        { operation: 'create', name: 'x', revokeOnExit: '1' },
        'revokeOnExit',
        /true or false; got "1"/,
      ],
      ['a fractional timeout', { operation: 'list', timeout: '1.5' }, 'timeout', /whole number/],
      [
        'a summary that is not a boolean',
        { operation: 'list', summary: 'yes' },
        'summary',
        /true or false; got "yes"/,
      ],
      [
        'an envName that would change how later steps run',
        { operation: 'create', name: 'x', envName: 'JAVA_TOOL_OPTIONS' },
        'envName',
        /must not be JAVA_TOOL_OPTIONS: names starting with JAVA_/,
      ],
    ])('%s', (_, given, input, message) => {
      const error = failure(given)
      expect(error.input).toBe(input)
      expect(error.message).toMatch(new RegExp(`^Input '${input}' `))
      expect(error.message).toMatch(message)
    })

    it('shortens a long value it quotes', () => {
      const error = failure({ operation: 'revoke', tokenId: 'x'.repeat(500) })
      expect(error.message.length).toBeLessThan(250)
    })
  })
})
