// The command line's words: its commands and flags read into the action's inputs (and the destinations only a terminal has), the connection from the environment, the usage.
import { readFileSync } from 'node:fs'
import { inputsOf } from '../inputs/read.js'
import { closest } from '../inputs/unknown-inputs.js'
import { ActionError, messageOf } from '../shared/errors.js'
import { oneOf, readEnvName } from '../inputs/parsers.js'
import { quote } from '../shared/text.js'

/**
 * Each command's flags: the inputs its operation reads (inputs/read.ts; a flag is the
 * input's name in kebab-case), then, written as flags, those only a terminal has. exec is a
 * create with COMMAND, and the only one with an end of a job: --revoke-on-exit. The
 * connection and its bounds are every command's.
 */
const COMMANDS = {
  create: '--token-file --print-value --k8s-secret --k8s-key --k8s-namespace --json',
  list: '--json',
  revoke: '--json',
  cleanup: '--json',
  audit: '--json',
  exec: '--revoke-on-exit --env --token-file-env',
}
/**
 * A create's inputs for the job's later steps, whose place the terminal's own flags take,
 * and for its end, which only exec has (COMMANDS).
 */
const HANDED_ON = ['envName', 'writeTokenFile', 'revokeOnExit']
const CONNECTION =
  'baseUrl authUrl clientId expectedProjectId timeout retries totalTimeout --client-secret-file'
const SWITCHES = ['dryRun', '--json', '--print-value']
const REPEATED = ['name', 'keepIds']
/** The connection's variables, under the names the README gives the repository's secrets. */
const ENVIRONMENT: Record<string, string> = {
  clientId: 'PLATFORM_CLIENT_ID',
  clientSecret: 'PLATFORM_CLIENT_SECRET',
  baseUrl: 'PLATFORM_API_URL',
  authUrl: 'PLATFORM_AUTH_URL',
  expectedProjectId: 'PLATFORM_PROJECT_ID',
}
/** exec's --revoke-on-exit: when COMMAND's token is revoked. */
const REVOKE_ON_EXIT = oneOf(['always', 'failure', 'never'])
/** What each check of create's flags allows: Kubernetes names, and a Secret's keys. */
const KUBERNETES = [
  ['k8s-secret', /^[a-z0-9]([-a-z0-9.]{0,251}[a-z0-9])?$/, 'a Kubernetes name (a-z, 0-9, - and .)'],
  ['k8s-namespace', /^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/, 'a Kubernetes namespace (a-z, 0-9, -)'],
  ['k8s-key', /^[-._a-zA-Z0-9]{1,253}$/, 'a Secret key (letters, digits, -, _ and .)'],
] as const

/** `keepIds` is given one id per `--keep-id`; every other input as its kebab-case name. */
export const flagOf = (input: string) =>
  input === 'keepIds' ? 'keep-id' : input.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)

/** How a user of the command line gives an input, for messages: `--older-than`, `--client-id or PLATFORM_CLIENT_ID`. */
export function spelling(input: string): string {
  if (input === 'clientSecret') return 'PLATFORM_CLIENT_SECRET or --client-secret-file'
  const variable = ENVIRONMENT[input]
  return `--${flagOf(input)}${variable === undefined ? '' : ` or ${variable}`}`
}

/** A refusal of the core's parsers as the command line says it: `--older-than`, not `Input 'olderThan'`. */
export const inCliWords = (message: string) =>
  message.replace(/^Input '(\w+)'/, (_, input: string) => spelling(input))

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
export type Invocation = Exclude<ReturnType<typeof readArgs>, string>

/**
 * What `--help` and `--version` ask for, else the invocation; or an ActionError, a core parser's
 * InputError among them (inCliWords says it).
 */
export function readArgs(args: readonly string[], env: NodeJS.ProcessEnv) {
  const [command, ...rest] = args
  const end = rest.indexOf('--')
  // Only before --: what follows is exec's COMMAND, whose own --help is its own.
  const [flags, argv] = end === -1 ? [rest, []] : [rest.slice(0, end), rest.slice(end + 1)]
  if (command === undefined || command === '--help' || flags.includes('--help')) return 'help'
  if (command === '--version') return 'version'
  if (!Object.hasOwn(COMMANDS, command))
    throw usage(
      'COMMAND',
      `must be one of ${Object.keys(COMMANDS).join(', ')}; got ${quote(command)}.`,
    )
  // Anywhere before --, a value of another flag's too: what follows it is never read, nor said.
  if (flags.some((arg) => /^--client-secret(=|$)/.test(arg)))
    throw usage(
      '--client-secret',
      'is refused: every process can read a command line. Give PLATFORM_CLIENT_SECRET, or --client-secret-file PATH.',
    )
  const known = command as keyof typeof COMMANDS
  const operation = known === 'exec' ? 'create' : known
  const inputs: Record<string, string> = { operation }
  for (const [input, variable] of Object.entries(ENVIRONMENT))
    if (env[variable]) inputs[input] = env[variable]
  const own: Record<string, string> = {}
  const reads = inputsOf(operation).filter((input) => !HANDED_ON.includes(input))
  const names = [...reads, ...`${COMMANDS[known]} ${CONNECTION}`.split(' ')]
  // Without their --, as `own` keeps them.
  const flagsOf = names.map((name) => (name.startsWith('--') ? name.slice(2) : flagOf(name)))
  for (let i = 0; i < flags.length; i++) {
    const [flag = '', inline] = (flags[i] ?? '').split(/=(.*)/s)
    const name = flag.startsWith('--') ? names[flagsOf.indexOf(flag.slice(2))] : undefined
    if (name === undefined) {
      const meant = closest(flag.replace(/^-*/, ''), flagsOf)
      const guess = meant ? `: did you mean --${meant}?` : '.'
      throw usage(flag, `is not a flag of gateway-token ${known}${guess} See gateway-token --help.`)
    }
    // A switch given a value is refused: --print-value=false would print the value all the same.
    if (SWITCHES.includes(name) && inline !== undefined)
      throw usage(flag, 'takes no value: give it, or leave it out.')
    const value = SWITCHES.includes(name) ? 'true' : (inline ?? flags[++i])
    if (value === undefined) throw usage(flag, 'needs a value.')
    if (name.startsWith('--')) own[name.slice(2)] = value
    // --name and --keep-id again and again: lines of one input, as in a workflow's with:.
    else
      inputs[name] = REPEATED.includes(name) && inputs[name] ? `${inputs[name]}\n${value}` : value
  }
  if (own['client-secret-file'] !== undefined)
    inputs.clientSecret = readSecretFile(own['client-secret-file'])
  // As the action's revokeOnExit says it. `never` is `failure` to the main and post steps: exec
  // has the post step keep the token once COMMAND has run, and revoke it when COMMAND never
  // started, and so held the token's value nowhere (a token nobody holds is a leak).
  if (known === 'exec') {
    const when = REVOKE_ON_EXIT(own['revoke-on-exit'] ?? 'always', 'revokeOnExit')
    inputs.revokeOnExit = when === 'always' ? 'true' : 'failure'
  }
  if (known === 'create') checkDestination(own)
  if (known === 'exec' && argv.length === 0)
    throw usage('COMMAND', 'is required after --: what exec runs with the token.')
  if (own.env !== undefined && own['token-file-env'] !== undefined)
    throw usage('--env', 'and --token-file-env are refused together: the token goes in one place.')
  for (const input of ['env', 'tokenFileEnv']) checkVariable(input, own[flagOf(input)])
  return { command: known, inputs, own, argv }
}

/** One place for the token, and a document only beside a destination that is not one. */
function checkDestination(own: Record<string, string>) {
  const given = ['token-file', 'print-value', 'k8s-secret'].filter((flag) => flag in own)
  if (given.length !== 1)
    throw usage(
      'create',
      `needs exactly one of --token-file PATH, --print-value and --k8s-secret NAME (${given.length} given): a token whose value nobody holds is a leak.`,
    )
  if (own['k8s-secret'] !== undefined && own.json !== undefined)
    throw usage('--k8s-secret', 'is refused with --json: the manifest is the document.')
  for (const flag of ['k8s-key', 'k8s-namespace'])
    if (own[flag] !== undefined && own['k8s-secret'] === undefined)
      throw usage(`--${flag}`, 'is only for --k8s-secret NAME, which was not given.')
  for (const [flag, allowed, what] of KUBERNETES)
    if (own[flag] !== undefined && !allowed.test(own[flag]))
      throw usage(`--${flag}`, `must be ${what}; got ${quote(own[flag])}.`)
}

/** exec's variable for the token: a name envName allows (never PATH, NODE_OPTIONS...), none of the connection's, not empty. */
function checkVariable(input: string, name: string | undefined) {
  if (name === undefined) return
  // The connection's own: COMMAND never gets the client secret, nor the token in its place.
  if (Object.values(ENVIRONMENT).includes(name.toUpperCase()))
    throw usage(spelling(input), `must not be ${name}: gateway-token reads its connection from it.`)
  if (!readEnvName(name, input)) throw usage(spelling(input), 'needs a value.')
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
const usage = (what: string, problem: string) => new ActionError(`${what} ${problem}`)
