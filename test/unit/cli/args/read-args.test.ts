// readArgs: the command line's flags and environment read into the action's inputs, and what it refuses before anything is sent.
import { describe, expect, it } from '@jest/globals'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { inCliWords, readArgs } from '../../../../src/cli/args.js'
import { ActionError } from '../../../../src/shared/errors.js'

const ENV = {
  PLATFORM_CLIENT_ID: 'client-1',
  PLATFORM_CLIENT_SECRET: 'from-the-environment',
  PLATFORM_API_URL: 'https://api.example.com',
  PLATFORM_AUTH_URL: 'https://auth.example.com',
}
const read = (args: string[], env: NodeJS.ProcessEnv = ENV) => {
  const invocation = readArgs(args, env)
  if (typeof invocation === 'string') throw new Error(`not a command: ${invocation}`)
  return invocation
}
const refusal = (args: string[], env: NodeJS.ProcessEnv = ENV) => {
  try {
    readArgs(args, env)
  } catch (error) {
    // As gateway-token says it after `error: `.
    if (error instanceof ActionError) return inCliWords(error.message)
    throw error
  }
  throw new Error('expected a usage error')
}

describe('readArgs: the flags, as the action’s inputs', () => {
  it('reads each flag as the input of its kebab-case name, with --flag value and --flag=value', () => {
    const { command, inputs } = read(['cleanup', '--older-than', '30d', '--keep=2', '--dry-run'])
    expect(command).toBe('cleanup')
    expect(inputs).toEqual({
      operation: 'cleanup',
      clientId: 'client-1',
      clientSecret: 'from-the-environment',
      baseUrl: 'https://api.example.com',
      authUrl: 'https://auth.example.com',
      olderThan: '30d',
      keep: '2',
      dryRun: 'true',
    })
  })

  it('takes --name and --keep-id again and again, as lines of one input', () => {
    const { inputs } = read([
      'cleanup',
      '--name',
      'ci-*',
      '--name=pr-7',
      '--keep-id',
      'a',
      '--keep-id',
      'b',
    ])
    expect(inputs).toMatchObject({ name: 'ci-*\npr-7', keepIds: 'a\nb' })
  })

  it('reads the connection from the environment, the flags over it', () => {
    const { inputs } = read(
      ['list', '--base-url', 'https://other.example.com', '--client-id', 'me'],
      {
        ...ENV,
        PLATFORM_PROJECT_ID: '6f1c2a8e-3b4d-4e5f-9a0b-1c2d3e4f5a6b',
      },
    )
    expect(inputs).toMatchObject({
      baseUrl: 'https://other.example.com',
      clientId: 'me',
      authUrl: 'https://auth.example.com',
      expectedProjectId: '6f1c2a8e-3b4d-4e5f-9a0b-1c2d3e4f5a6b',
    })
  })

  it('keeps a destination’s flags apart from the inputs', () => {
    const { inputs, own } = read(['create', '--name', 'n', '--token-file', '/tmp/t', '--json'])
    expect(own).toEqual({ 'token-file': '/tmp/t', json: 'true' })
    expect(inputs).not.toHaveProperty('token-file')
  })

  it('exec: a create, revokeOnExit as --revoke-on-exit says (always by default), and COMMAND after --', () => {
    const run = read(['exec', '--name', 'n', '--', 'helm', 'upgrade', '--install'])
    expect(run).toMatchObject({ command: 'exec', argv: ['helm', 'upgrade', '--install'] })
    expect(run.inputs).toMatchObject({ operation: 'create', revokeOnExit: 'true' })
    const when = (value: string) =>
      read(['exec', '--name', 'n', '--revoke-on-exit', value, '--', 'x']).inputs.revokeOnExit
    // never: failure to the post step, which exec tells the job failed only when COMMAND
    // never started (exec.test.ts); the word itself kept for exec.
    expect([when('always'), when('failure'), when('never')]).toEqual(['true', 'failure', 'failure'])
    const never = read(['exec', '--name', 'n', '--revoke-on-exit', 'never', '--', 'x'])
    expect(never.own['revoke-on-exit']).toBe('never')
  })

  it('asks for the usage with --help or no command, and the version with --version', () => {
    expect(readArgs([], ENV)).toBe('help')
    expect(readArgs(['list', '--help'], ENV)).toBe('help')
    expect(readArgs(['--version'], ENV)).toBe('version')
  })

  it("leaves a --help after -- to exec's COMMAND", () => {
    expect(read(['exec', '--name', 'n', '--', 'helm', '--help']).argv).toEqual(['helm', '--help'])
  })
})

describe('readArgs: the client secret is never a flag', () => {
  it('refuses --client-secret, in either form, saying where the secret goes', () => {
    for (const args of [
      ['list', '--client-secret', 'x'],
      ['list', '--client-secret=x'],
      // Taken by another flag as its value: still refused, and what follows never said.
      ['list', '--name', '--client-secret', 's3cr3t-value'],
    ])
      expect(refusal(args)).toBe(
        '--client-secret is refused: every process can read a command line. Give PLATFORM_CLIENT_SECRET, or --client-secret-file PATH.',
      )
  })

  it('takes a value that only holds the words, and --client-secret-file', () => {
    expect(read(['list', '--name', 'ci--client-secret']).inputs.name).toBe('ci--client-secret')
    expect(read(['list', '--name=--client-secret-rotation']).inputs.name).toBe(
      '--client-secret-rotation',
    )
  })

  it("holds exec's variable for the token to envName's rule, and to a name", () => {
    const exec = (...flags: string[]) => ['exec', '--name', 'n', ...flags, '--', 'true']
    expect(refusal(exec('--env='))).toBe('--env needs a value.')
    expect(refusal(exec('--token-file-env='))).toBe('--token-file-env needs a value.')
    expect(refusal(exec('--token-file-env', 'PATH'))).toMatch(/^--token-file-env must not be PATH/)
    expect(refusal(exec('--env', 'NODE_OPTIONS'))).toMatch(/^--env must not be NODE_OPTIONS/)
    expect(refusal(exec('--env', 'PLATFORM_CLIENT_SECRET'))).toBe(
      '--env must not be PLATFORM_CLIENT_SECRET: gateway-token reads its connection from it.',
    )
    expect(refusal(exec('--token-file-env', 'platform_api_url'))).toMatch(
      /^--token-file-env must not be platform_api_url/,
    )
    expect(read(exec('--token-file-env', 'TOKEN_FILE')).own['token-file-env']).toBe('TOKEN_FILE')
  })

  it('reads --client-secret-file, one trailing line break dropped, over the variable', () => {
    const dir = mkdtempSync(join(tmpdir(), 'args-'))
    try {
      writeFileSync(join(dir, 'secret'), 'from-a-file\n\n')
      writeFileSync(join(dir, 'crlf'), 'windows\r\n')
      expect(read(['list', '--client-secret-file', join(dir, 'secret')]).inputs.clientSecret).toBe(
        'from-a-file\n',
      )
      expect(read(['list', '--client-secret-file', join(dir, 'crlf')]).inputs.clientSecret).toBe(
        'windows',
      )
      // The break at the end only: one inside the secret is the secret's.
      writeFileSync(join(dir, 'lines'), 'two\nlines\n')
      expect(read(['list', '--client-secret-file', join(dir, 'lines')]).inputs.clientSecret).toBe(
        'two\nlines',
      )
      expect(refusal(['list', '--client-secret-file', join(dir, 'none')])).toMatch(
        /^--client-secret-file could not be read: ENOENT/,
      )
    } finally {
      rmSync(dir, { recursive: true })
    }
  })
})

describe('readArgs: what it refuses, naming the flag', () => {
  it.each([
    [
      ['deploy'],
      'COMMAND must be one of create, list, revoke, cleanup, audit, exec; got "deploy".',
    ],
    [
      ['toString'],
      'COMMAND must be one of create, list, revoke, cleanup, audit, exec; got "toString".',
    ],
    [
      ['list', '--older-then', '3d'],
      '--older-then is not a flag of gateway-token list. See gateway-token --help.',
    ],
    [
      ['cleanup', '--older-then', '3d'],
      '--older-then is not a flag of gateway-token cleanup: did you mean --older-than? See gateway-token --help.',
    ],
    [
      ['list', '--token-file', 'x'],
      '--token-file is not a flag of gateway-token list. See gateway-token --help.',
    ],
    [['list', 'ci-*'], 'ci-* is not a flag of gateway-token list. See gateway-token --help.'],
    // Not a flag without its --, whatever follows its first two characters.
    [['list', 'orjson'], 'orjson is not a flag of gateway-token list. See gateway-token --help.'],
    [
      ['create', '--name', 'n', '--print-value', '--env-name', 'T'],
      '--env-name is not a flag of gateway-token create. See gateway-token --help.',
    ],
    [
      ['create', '--name', 'n', '--print-value=false'],
      '--print-value takes no value: give it, or leave it out.',
    ],
    [['cleanup', '--dry-run=false'], '--dry-run takes no value: give it, or leave it out.'],
    [
      ['create', '--name', 'n', '--print-value', '--k8s-namespace', 'ci'],
      '--k8s-namespace is only for --k8s-secret NAME, which was not given.',
    ],
    [
      ['create', '--name', 'n', '--token-file', 'f', '--k8s-key', 'k'],
      '--k8s-key is only for --k8s-secret NAME, which was not given.',
    ],
    [
      ['create', '--name', 'n', '--print-value', '--revoke-on-exit', 'never'],
      '--revoke-on-exit is not a flag of gateway-token create. See gateway-token --help.',
    ],
    // The inputs a terminal's own flags stand for, and the one the command names.
    [
      ['create', '--name', 'n', '--env', 'T'],
      '--env is not a flag of gateway-token create. See gateway-token --help.',
    ],
    [
      ['create', '--name', 'n', '--write-token-file'],
      '--write-token-file is not a flag of gateway-token create. See gateway-token --help.',
    ],
    [
      ['exec', '--name', 'n', '--write-token-file', '--', 'x'],
      '--write-token-file is not a flag of gateway-token exec. See gateway-token --help.',
    ],
    [
      ['list', '--operation', 'revoke'],
      '--operation is not a flag of gateway-token list. See gateway-token --help.',
    ],
    [['list', '--name'], '--name needs a value.'],
    [['exec', '--name', 'n'], 'COMMAND is required after --: what exec runs with the token.'],
    [
      ['exec', '--name', 'n', '--revoke-on-exit', 'true', '--', 'x'],
      '--revoke-on-exit must be one of always, failure, never; got "true".',
    ],
    [
      ['exec', '--name', 'n', '--env', 'A', '--token-file-env', 'B', '--', 'x'],
      '--env and --token-file-env are refused together: the token goes in one place.',
    ],
  ])('%j', (args, message) => {
    expect(refusal(args)).toBe(message)
  })
})

describe('readArgs: create puts the token in exactly one place', () => {
  const create = (...flags: string[]) => ['create', '--name', 'n', ...flags]
  it('refuses none, and two, before any request: a token nobody holds is a leak', () => {
    expect(refusal(create())).toBe(
      'create needs exactly one of --token-file PATH, --print-value and --k8s-secret NAME (0 given): a token whose value nobody holds is a leak.',
    )
    expect(refusal(create('--print-value', '--token-file', 't'))).toMatch(/\(2 given\)/)
  })

  it('takes each one alone', () => {
    for (const flags of [
      ['--print-value'],
      ['--token-file', 't'],
      ['--k8s-secret', 'mediator-token'],
    ])
      expect(read(create(...flags)).command).toBe('create')
  })

  it('refuses --k8s-secret with --json, and names that Kubernetes would refuse', () => {
    expect(refusal(create('--k8s-secret', 's', '--json'))).toBe(
      '--k8s-secret is refused with --json: the manifest is the document.',
    )
    expect(refusal(create('--k8s-secret', 'Mediator'))).toBe(
      '--k8s-secret must be a Kubernetes name (a-z, 0-9, - and .); got "Mediator".',
    )
    expect(refusal(create('--k8s-secret', 's', '--k8s-namespace', 'a b'))).toMatch(
      /^--k8s-namespace must be/,
    )
    expect(refusal(create('--k8s-secret', 's', '--k8s-key', 'a/b'))).toMatch(
      /^--k8s-key must be a Secret key/,
    )
    expect(
      read(create('--k8s-secret', 's', '--k8s-key', 'GATEWAY_TOKEN', '--k8s-namespace', 'prod'))
        .own,
    ).toMatchObject({
      'k8s-key': 'GATEWAY_TOKEN',
    })
  })
})
