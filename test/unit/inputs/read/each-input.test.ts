// readInputs: each input read by the right parser, with its range, on both sides of every rule.
import { describe, expect, it } from '@jest/globals'
import { InputError } from '../../../../src/shared/errors.js'
import { inputVariable } from '../../../../src/inputs/unknown-inputs.js'
import {
  type CreateTask,
  type Inputs,
  readConnection,
  readInputs,
} from '../../../../src/inputs/read.js'
import { Secrets } from '../../../../src/shared/secrets.js'
import { authEndpoint } from '../../../../src/platform/api.js'
import { refusal } from '../../../fixtures/input-error.js'
import { CONNECTION, OPERATION, PROJECT_ID, read, TOKEN_ID } from '../../../fixtures/inputs.js'
import { recordingSecrets } from '../../../fixtures/secrets.js'

const FORKS = 'Secrets are not passed to workflows triggered from forks.'

/** An input source and a secret masker that record, in one list, each read and each mask. */
function recorded(values: Record<string, string>) {
  const events: string[] = []
  const secrets = new Secrets((value) => events.push(`mask ${value}`))
  const source = (name: string) => {
    events.push(`read ${name}`)
    return values[name] ?? ''
  }
  return { events, source, secrets }
}

/** The INPUT_* variables (without the prefix) the runner sets for these inputs. */
const names = (values: Record<string, string>) => Object.keys(values).map(inputVariable)

/** The InputError that reading `given` throws. */
const failure = (given: Record<string, string>) => refusal(() => read(given))

/** The operation each input is tried with, one that uses it; list when not named here. */
const USED_BY: Record<string, string> = {
  ...{ envName: 'create', ifExists: 'create', revokeOnExit: 'create', writeTokenFile: 'create' },
  ...{ olderThan: 'cleanup', keep: 'cleanup', dryRun: 'cleanup', concurrency: 'cleanup' },
  tokenId: 'revoke',
}
function given(input: string, raw: string): Record<string, string> {
  return { ...OPERATION[USED_BY[input] ?? 'list'], [input]: raw }
}
/** The value readInputs made of `input`. */
function parsed(input: string, inputs: Inputs): unknown {
  const { connection } = inputs
  const elsewhere: Record<string, unknown> = {
    timeout: connection.timeoutMs,
    retries: connection.retries,
    totalTimeout: connection.totalTimeoutMs,
    summary: inputs.summary,
    expectedProjectId: inputs.expectedProjectId,
  }
  if (input in elsewhere) return elsewhere[input]
  expect(inputs.task).toHaveProperty(input)
  return (inputs.task as unknown as Record<string, unknown>)[input]
}

const BOOLEANS = ['summary', 'dryRun', 'writeTokenFile']
const CONTROL = 'must not hold control characters (tabs, carriage returns) within a line; got'
const HTTPS = 'must use https (http only for localhost, 127.0.0.0/8 and [::1]); got'

describe('readInputs', () => {
  it('masks clientSecret before anything else, even when another input is bad', () => {
    const { secrets, masked } = recordingSecrets()
    const values: Record<string, string> = { clientSecret: 'early-secret', operation: 'bogus' }
    expect(() => readInputs((name) => values[name] ?? '', secrets, names(values))).toThrow(
      InputError,
    )
    expect(masked).toEqual(['early-secret'])
  })

  it('reads clientSecret first and masks it before reading any other input', () => {
    const values = { ...CONNECTION, operation: 'list' }
    const { events, source, secrets } = recorded(values)
    readInputs(source, secrets, names(values))
    expect(events.slice(0, 3)).toEqual(['read clientSecret', 'mask s3cr3t-value', 'read operation'])
  })

  it('readConnection alone (the post step) also masks clientSecret before any other read', () => {
    const { events, source, secrets } = recorded({ ...CONNECTION })
    readConnection(source, secrets)
    expect(events.slice(0, 3)).toEqual(['read clientSecret', 'mask s3cr3t-value', 'read clientId'])
  })

  it('masks nothing when clientSecret is empty, and fails naming it', () => {
    const { events, source, secrets } = recorded({ ...CONNECTION, clientSecret: '' })
    expect(refusal(() => readConnection(source, secrets)).input).toBe('clientSecret')
    expect(events.filter((event) => event.startsWith('mask'))).toEqual([])
  })

  it('reads a create with the defaults of action.yml', () => {
    const { inputs } = read({ operation: 'create', name: 'ci-deploy' })
    const expected: CreateTask = {
      operation: 'create',
      name: 'ci-deploy',
      envName: undefined,
      ifExists: 'create',
      revokeOnExit: 'never',
      writeTokenFile: false,
    }
    expect(inputs.task).toEqual(expected)
    expect(inputs.connection).toEqual({
      clientId: 'client-1',
      clientSecret: 's3cr3t-value',
      baseUrl: 'https://api.example.com',
      authUrl: 'https://auth.example.com',
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
    expect(inputs.task).toEqual(read({ operation: 'list' }).inputs.task)
    expect(inputs.task).toMatchObject({ operation: 'list', name: undefined, state: 'all' })
    expect(inputs.connection.timeoutMs).toBe(30_000)
    expect(inputs.summary).toBe(true)
  })

  it.each<[string, string, string]>([
    ['baseUrl', 'https://example.com/platform/v1//', 'https://example.com/platform/v1'],
    ['baseUrl', 'http://127.1:8080/', 'http://127.0.0.1:8080'],
    [
      'authUrl',
      'https://example.com/frontegg/identity/resources/auth/v2/api-token',
      'https://example.com/frontegg/identity/resources/auth/v2/api-token',
    ],
    [
      'authUrl',
      'https://example.com/auth/',
      'https://example.com/auth/idp/identity/resources/auth/v2/api-token',
    ],
    // Ends in /api-token once the trailing / is gone: the full endpoint.
    [
      'authUrl',
      'https://example.com/identity/api-token/',
      'https://example.com/identity/api-token',
    ],
    // Not a path segment of its own, or a longer one: a base URL.
    [
      'authUrl',
      'https://example.com/my-api-token',
      'https://example.com/my-api-token/idp/identity/resources/auth/v2/api-token',
    ],
    [
      'authUrl',
      'https://example.com/api-tokens',
      'https://example.com/api-tokens/idp/identity/resources/auth/v2/api-token',
    ],
  ])('reads %s %s as %s', (input, raw, expected) => {
    const { connection } = read({ operation: 'list', [input]: raw }).inputs
    // The token endpoint is the platform layer's: the inputs hand on the URL, trimmed.
    const url = input === 'baseUrl' ? connection.baseUrl : authEndpoint(connection.authUrl)
    expect(url).toBe(expected)
  })

  it.each<[string, string, unknown]>([
    ['timeout', '1', 1000],
    ['timeout', '600', 600_000],
    ['retries', '0', 0],
    ['retries', '10', 10],
    ['totalTimeout', '0', 0],
    ['totalTimeout', '21600', 21_600_000],
    ['concurrency', '1', 1],
    ['concurrency', '32', 32],
    ['keep', '0', 0],
    ['keep', '1000', 1000],
    ['olderThan', '90m', { text: '90m', ms: 90 * 60_000 }],
    ['state', 'active', 'active'],
    ['state', 'revoked', 'revoked'],
    ['state', 'all', 'all'],
    ['ifExists', 'create', 'create'],
    ['ifExists', 'reuse', 'reuse'],
    ['ifExists', 'fail', 'fail'],
    ['expectedProjectId', PROJECT_ID, PROJECT_ID],
    ['envName', 'ACME_GATEWAY_TOKEN', 'ACME_GATEWAY_TOKEN'],
    ['name', 'ci deploy ✓', ['ci deploy ✓']],
    ['tokenId', TOKEN_ID, TOKEN_ID],
    ...BOOLEANS.flatMap((input) => [
      ...['true', 'True', 'TRUE'].map((raw): [string, string, boolean] => [input, raw, true]),
      ...['false', 'False', 'FALSE'].map((raw): [string, string, boolean] => [input, raw, false]),
    ]),
    ...['true', 'True', 'TRUE'].map((raw): [string, string, string] => [
      'revokeOnExit',
      raw,
      'always',
    ]),
    ...['false', 'False', 'FALSE'].map((raw): [string, string, string] => [
      'revokeOnExit',
      raw,
      'never',
    ]),
    ['revokeOnExit', 'failure', 'failure'],
  ])('accepts %s %j, read as %j', (input, raw, expected) => {
    const { inputs } = read(given(input, raw))
    expect(parsed(input, inputs)).toEqual(expected)
    expect(inputs.warnings).toEqual([])
  })

  it.each<[string, string, string]>([
    ['operation', '', 'is required: one of create, list, revoke, cleanup, audit.'],
    ['operation', 'delete', 'must be one of create, list, revoke, cleanup, audit; got "delete".'],
    ['operation', 'Create', 'must be one of create, list, revoke, cleanup, audit; got "Create".'],
    ['clientId', '', `is required: the API client id, from a secret. ${FORKS}`],
    ['clientSecret', '', `is required: the API client secret, from a secret. ${FORKS}`],
    ['baseUrl', '', 'is required: the REST API base URL, like https://api.example.com.'],
    ['authUrl', '', 'is required: the auth service base URL, like https://api.example.com.'],
    ['baseUrl', 'http://127.0.0.1.nip.io', `${HTTPS} "http://127.0.0.1.nip.io".`],
    ['authUrl', 'http://localhost.example.com', `${HTTPS} "http://localhost.example.com".`],
    ['tokenId', '', 'is required for operation revoke: the id (a UUID) of the token.'],
    ['timeout', '0', 'must be a whole number of seconds from 1 to 600; got "0".'],
    ['timeout', '601', 'must be a whole number of seconds from 1 to 600; got "601".'],
    ['timeout', '1.5', 'must be a whole number of seconds from 1 to 600; got "1.5".'],
    ['retries', '-1', 'must be a whole number from 0 to 10; got "-1".'],
    ['retries', '11', 'must be a whole number from 0 to 10; got "11".'],
    ['retries', '3.5', 'must be a whole number from 0 to 10; got "3.5".'],
    ['retries', ' 3', 'must be a whole number from 0 to 10; got " 3".'],
    ['totalTimeout', '21601', 'must be a whole number of seconds from 0 to 21600; got "21601".'],
    ['totalTimeout', '-1', 'must be a whole number of seconds from 0 to 21600; got "-1".'],
    ['concurrency', '0', 'must be a whole number from 1 to 32; got "0".'],
    ['concurrency', '33', 'must be a whole number from 1 to 32; got "33".'],
    ['keep', '1001', 'must be a whole number from 0 to 1000; got "1001".'],
    ['keep', '-1', 'must be a whole number from 0 to 1000; got "-1".'],
    [
      'olderThan',
      '0d',
      'must be a whole number and a unit, m, h, d or w (90m, 12h, 30d, 2w); got "0d".',
    ],
    ['state', 'expired', 'must be one of active, revoked, all; got "expired".'],
    ['state', 'Active', 'must be one of active, revoked, all; got "Active".'],
    ['ifExists', 'replace', 'must be one of create, reuse, fail; got "replace".'],
    ['ifExists', 'REUSE', 'must be one of create, reuse, fail; got "REUSE".'],
    [
      'expectedProjectId',
      'prod',
      'must be a project id (a UUID) like 6f1c2a8e-3b4d-4e5f-9a0b-1c2d3e4f5a6b; got "prod".',
    ],
    [
      'envName',
      'JAVA_TOOL_OPTIONS',
      'must not be JAVA_TOOL_OPTIONS: names starting with JAVA_ change how Java runs in later steps. Choose a name of your own, like YOURSERVICE_GATEWAY_TOKEN.',
    ],
    ['name', 'a\tb', `${CONTROL} "a\\tb".`],
    ['tokenId', '..', 'must be a UUID like 123e4567-e89b-42d3-a456-426614174000; got "..".'],
    ...BOOLEANS.flatMap((input) =>
      ['yes', '1', 'on', 'tRUE'].map((raw): [string, string, string] => [
        input,
        raw,
        `must be true or false; got "${raw}".`,
      ]),
    ),
    ...['yes', 'tRUE', 'Failure', 'failed', 'on-failure'].map((raw): [string, string, string] => [
      'revokeOnExit',
      raw,
      `must be true, false or failure (revoke only when the job does not succeed); got "${raw}".`,
    ]),
  ])('refuses %s %j', (input, raw, problem) => {
    const error = failure(given(input, raw))
    expect(error.input).toBe(input)
    expect(error.message).toBe(`Input '${input}' ${problem}`)
  })

  it.each<[string, Record<string, string>, string]>([
    ['name', { operation: 'create' }, "is required for this operation: the new token's name."],
    ['name', { operation: 'cleanup', name: 'a\rb' }, `${CONTROL} "a\\rb".`],
    [
      'name',
      { operation: 'cleanup' },
      "or 'olderThan' is required for operation cleanup: say which tokens to revoke (name: ci-*, olderThan: 30d). Nothing was revoked.",
    ],
  ])('refuses %s when %j', (input, values, problem) => {
    const error = failure(values)
    expect(error.input).toBe(input)
    expect(error.message).toBe(`Input '${input}' ${problem}`)
  })

  it('reads the credentials and a cleanup selected by name alone or by age alone', () => {
    expect(read({ operation: 'list' }).inputs.connection).toMatchObject({
      clientId: 'client-1',
      clientSecret: 's3cr3t-value',
    })
    expect(read({ operation: 'cleanup', name: 'ci-*' }).inputs.task).toMatchObject({
      name: ['ci-*'],
      olderThan: undefined,
    })
    expect(read({ operation: 'cleanup', olderThan: '30d' }).inputs.task).toMatchObject({
      name: undefined,
      olderThan: { text: '30d', ms: 30 * 86_400_000 },
    })
  })
})
