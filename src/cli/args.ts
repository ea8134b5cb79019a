// The command line's words: its commands and flags read into the action's inputs (and the destinations only a terminal has), the connection from the environment, the usage.
import { readFileSync } from 'node:fs'
import { closest } from '../inputs/unknown-inputs.js'
import { ActionError, messageOf } from '../shared/errors.js'
import { quote } from '../shared/text.js'

/** Each command's inputs, as the action names them: a flag is the name in kebab-case. */
const COMMANDS = {
  create: ['name', 'ifExists'],
  list: ['name', 'state'],
  revoke: ['tokenId'],
  cleanup: ['name', 'olderThan', 'keep', 'keepIds', 'dryRun', 'concurrency'],
  audit: ['name', 'olderThan'],
  exec: ['name', 'ifExists', 'revokeOnExit'],
} as const
export type Command = keyof typeof COMMANDS
const CONNECTION = ['baseUrl', 'authUrl', 'clientId', 'expectedProjectId']
const BOUNDS = ['timeout', 'retries', 'totalTimeout']
/** Where each command's own flags go: not inputs of the action (a destination, the document). */
const OWN: Record<Command, readonly string[]> = {
  create: ['token-file', 'print-value', 'k8s-secret', 'k8s-key', 'k8s-namespace', 'json'],
  list: ['json'],
  revoke: ['json'],
  cleanup: ['json'],
  audit: ['json'],
  exec: ['env', 'token-file-env'],
}
const SWITCHES = new Set(['dryRun', 'json', 'print-value'])
const REPEATED = new Set(['name', 'keepIds'])
/** The connection's variables, under the names the README gives the repository's secrets. */
const ENVIRONMENT = {
  clientId: 'PLATFORM_CLIENT_ID',
  clientSecret: 'PLATFORM_CLIENT_SECRET',
  baseUrl: 'PLATFORM_API_URL',
  authUrl: 'PLATFORM_AUTH_URL',
  expectedProjectId: 'PLATFORM_PROJECT_ID',
} as const

/** `keepIds` is given one id per `--keep-id`; every other input as its kebab-case name. */
export const flagOf = (input: string) =>
  input === 'keepIds' ? 'keep-id' : input.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)

/** How a user of the command line gives an input, for messages: `--older-than`, `--client-id or PLATFORM_CLIENT_ID`. */
export function spelling(input: string): string {
  if (input === 'clientSecret') return 'PLATFORM_CLIENT_SECRET or --client-secret-file'
  if (input === 'envName') return '--env'
  const variable = (ENVIRONMENT as Record<string, string | undefined>)[input]
  return `--${flagOf(input)}${variable === undefined ? '' : ` or ${variable}`}`
}

export const USAGE = `Usage: gateway-token COMMAND [FLAGS]   (flags as the action's inputs, in kebab-case)
  create  --name NAME [--if-exists create|reuse|fail] (--token-file PATH | --print-value | --k8s-secret NAME [--k8s-key KEY] [--k8s-namespace NS]) [--json]
  list    [--name FILTER]... [--state active|revoked|all] [--json]
  revoke  --token-id ID [--json]
  cleanup [--name FILTER]... [--older-than AGE] [--keep N] [--keep-id ID]... [--dry-run] [--concurrency N] [--json]
  audit   --older-than AGE [--name FILTER]... [--json]
  exec    --name NAME [--env VAR] [--token-file-env VAR] [--revoke-on-exit always|failure|never] [--if-exists create|reuse|fail] -- COMMAND [ARG]...
Every command: [--base-url URL] [--auth-url URL] [--client-id ID] [--client-secret-file PATH] [--expected-project-id ID] [--timeout S] [--retries N] [--total-timeout S]
Environment: PLATFORM_CLIENT_ID, PLATFORM_CLIENT_SECRET, PLATFORM_API_URL, PLATFORM_AUTH_URL, PLATFORM_PROJECT_ID.
Exit codes: 0 done; 1 the operation failed; 2 bad usage or input (nothing sent); exec: COMMAND's.`

/** A command line read: the action's inputs, the command's own flags, and exec's COMMAND. */
export interface Invocation {
  command: Command
  inputs: Record<string, string>
  own: Record<string, string>
  argv: string[]
}

/** What `--help` and `--version` ask for, else the invocation; or a UsageError. */
export function readArgs(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Invocation | 'help' | 'version' {
  const [command, ...rest] = args
  if (command === undefined || command === '--help' || rest.includes('--help')) return 'help'
  if (command === '--version') return 'version'
  if (!Object.hasOwn(COMMANDS, command))
    throw usage(
      'COMMAND',
      `must be one of ${Object.keys(COMMANDS).join(', ')}; got ${quote(command)}.`,
    )
  const known = command as Command
  const end = rest.indexOf('--')
  const flags = end === -1 ? rest : rest.slice(0, end)
  const inputs: Record<string, string> = { operation: known === 'exec' ? 'create' : known }
  for (const [input, variable] of Object.entries(ENVIRONMENT))
    if (env[variable]) inputs[input] = env[variable]
  const own: Record<string, string> = {}
  const names = [...COMMANDS[known], ...CONNECTION, ...BOUNDS]
  for (let i = 0; i < flags.length; i++) {
    const [flag = '', inline] = (flags[i] ?? '').split(/=(.*)/s)
    const name = flag.replace(/^--/, '')
    const input = names.find((candidate) => flagOf(candidate) === name)
    if (name === 'client-secret')
      throw usage(
        flag,
        'is refused: every process can read a command line. Give PLATFORM_CLIENT_SECRET, or --client-secret-file PATH.',
      )
    if (
      !flag.startsWith('--') ||
      (input === undefined && ![...OWN[known], 'client-secret-file'].includes(name))
    ) {
      const meant = closest(name, [...names.map(flagOf), ...OWN[known]])
      throw usage(
        flag,
        `is not a flag of gateway-token ${known}${meant ? `: did you mean --${meant}?` : '.'} See gateway-token --help.`,
      )
    }
    const value = SWITCHES.has(input ?? name) ? 'true' : (inline ?? flags[++i])
    if (value === undefined) throw usage(flag, 'needs a value.')
    if (input === undefined) own[name] = value
    else inputs[input] = REPEATED.has(input) && inputs[input] ? `${inputs[input]}\n${value}` : value
  }
  if (own['client-secret-file'] !== undefined)
    inputs.clientSecret = readSecretFile(own['client-secret-file'])
  if (inputs.revokeOnExit !== undefined) {
    const when = new Map([
      ['always', 'true'],
      ['failure', 'failure'],
      ['never', 'false'],
    ]).get(inputs.revokeOnExit)
    if (when === undefined)
      throw usage(
        '--revoke-on-exit',
        `must be always, failure or never; got ${quote(inputs.revokeOnExit)}.`,
      )
    inputs.revokeOnExit = when
  } else if (known === 'exec') inputs.revokeOnExit = 'true'
  const argv = end === -1 ? [] : rest.slice(end + 1)
  if (known === 'create') checkDestination(own)
  if (known === 'exec' && argv.length === 0)
    throw usage('COMMAND', 'is required after --: what exec runs with the token.')
  if (own.env !== undefined && own['token-file-env'] !== undefined)
    throw usage('--env', 'and --token-file-env are refused together: the token goes in one place.')
  return { command: known, inputs, own, argv }
}

/** One place for the token, and a document only beside a destination that is not one. */
function checkDestination(own: Record<string, string>) {
  const given = ['token-file', 'print-value', 'k8s-secret'].filter(
    (flag) => own[flag] !== undefined,
  )
  if (given.length !== 1)
    throw usage(
      'create',
      `needs exactly one of --token-file PATH, --print-value and --k8s-secret NAME (${given.length} given): a token whose value nobody holds is a leak.`,
    )
  if (own['k8s-secret'] !== undefined && own.json !== undefined)
    throw usage('--k8s-secret', 'is refused with --json: the manifest is the document.')
  const k8sName = /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/
  for (const flag of ['k8s-secret', 'k8s-namespace'])
    if (own[flag] !== undefined && !k8sName.test(own[flag]))
      throw usage(
        `--${flag}`,
        `must be a Kubernetes name (lower case letters, digits, - and .); got ${quote(own[flag] ?? '')}.`,
      )
  if (own['k8s-key'] !== undefined && !/^[-._a-zA-Z0-9]{1,253}$/.test(own['k8s-key']))
    throw usage(
      '--k8s-key',
      `must be a Secret key (letters, digits, -, _ and .); got ${quote(own['k8s-key'] ?? '')}.`,
    )
}

/** The client secret from a file, one trailing line break dropped. */
function readSecretFile(path: string): string {
  try {
    return readFileSync(path, 'utf8').replace(/\r?\n$/, '')
  } catch (error) {
    throw usage('--client-secret-file', `could not be read: ${messageOf(error)}`)
  }
}

/** A command line that cannot be run as given: exit code 2, as for a bad input, nothing sent. */
export class UsageError extends ActionError {}
const usage = (what: string, problem: string) => new UsageError(`${what} ${problem}`)
