// The command line: a command run as the action's main step on a terminal, the token where it was asked or a JSON document on stdout, and an exit code.
import packageJson from '../../package.json' with { type: 'json' }
import { run as mainStep } from '../main.js'
import type { Outcome } from '../operations/index.js'
import { ActionError, InputError, toFile } from '../shared/errors.js'
import { publicJson, type TokenRecord } from '../shared/records.js'
import { writeTokenFile } from '../shared/token-files.js'
import { inCliWords, readArgs, USAGE } from './args.js'
import { exec } from './exec.js'
import { say, SYSTEM, terminal, type Surroundings } from './terminal.js'

/**
 * Runs `gateway-token` with `args` (after the program's name) where it runs (SYSTEM), but
 * what a test gives; returns its exit code.
 */
export async function commandLine(args: readonly string[], given: Partial<Surroundings> = {}) {
  const surroundings = { ...SYSTEM, ...given }
  const { env, clock, streams } = surroundings
  let invocation: ReturnType<typeof readArgs>
  try {
    invocation = readArgs(args, env)
  } catch (error) {
    if (!(error instanceof ActionError)) throw error
    // It may quote an argument: one line, never a runner command.
    const { message } = error
    streams.err(`error: ${say(error instanceof InputError ? inCliWords(message) : message)}\n`)
    return 2
  }
  if (invocation === 'help' || invocation === 'version') {
    streams.out(`${invocation === 'help' ? USAGE : packageJson.version}\n`)
    return 0
  }
  if (invocation.command === 'exec') return exec(invocation, surroundings)
  const { runner, exitCode, stdoutScrubber, cleanUp } = terminal(invocation.inputs, surroundings)
  try {
    const step = await mainStep(runner, clock, (outcome) => {
      const text = stdoutOf(outcome, invocation.own, stdoutScrubber)
      // A failure here fails the step as a runner file that cannot be written does (handOnFailed).
      if (text !== undefined)
        toFile('stdout', () => {
          streams.out(`${text}\n`)
        })
    })
    return exitCode(step)
  } finally {
    cleanUp()
  }
}

/** What scrubs a text for stdout of the secrets a step knew, but the values of these records. */
type Scrubber = (records: readonly TokenRecord[]) => (text: string) => string

/**
 * What a result puts on stdout, after the log's lines: a create's token where it was asked
 * (written here to --token-file), or the JSON document of `--json`; else nothing. Whatever a
 * server echoed into a record (the client secret, the access token) is scrubbed from it.
 */
function stdoutOf({ result, task }: Outcome, own: Record<string, string>, scrubber: Scrubber) {
  const json = own.json !== undefined
  if (result.operation === 'create') {
    const { token } = result
    const value = token.tokenValue ?? ''
    const file = own['token-file']
    if (file !== undefined) toFile(`--token-file ${file}`, () => writeTokenFile(file, value))
    if (own['k8s-secret'] !== undefined) return manifest(own, value)
    if (own['print-value'] !== undefined && !json) return value
    // The new token's value too, wherever else the answer put it.
    const scrub = scrubber([])
    // A reused token's id is the list's, never checked as a UUID: one line, no runner command.
    if (!json) return say(scrub(token.id))
    return document(token, scrub, own['print-value'] ? ['tokenValue'] : [])
  }
  if (!json) return undefined
  if (result.operation === 'revoke') return document(result.token, scrubber([]))
  if (result.operation === 'list') return document(result.tokens, scrubber(result.tokens))
  const lists =
    result.operation === 'audit'
      ? { findings: result.findings, undated: result.undated }
      : {
          revoked: result.revoked,
          kept: result.kept.map(({ token }) => token),
          notRevoked: result.notRevoked.map(({ token }) => token),
          left: result.left,
          unknown: result.unknown,
        }
  const dryRun = task.operation === 'cleanup' && task.dryRun ? { dryRun: true } : {}
  const all = { ...dryRun, ...lists }
  return document(all, scrubber(Object.values(lists).flat()), Object.keys(all))
}

/**
 * A document: the records' public fields as JSON (and the keys `around` them), each text
 * scrubbed; a tokenValue, there only where --print-value asked for it, left as it is.
 */
function document(records: unknown, scrub: (text: string) => string, around: string[] = []) {
  const fields = JSON.parse(publicJson(records, around)) as unknown
  const json = JSON.stringify(fields, (key, value: unknown) =>
    typeof value === 'string' && key !== 'tokenValue' ? scrub(value) : value,
  )
  // One line, so no `::` command starts it; `##[` (a legacy command, run from anywhere in a
  // line a GitHub runner prints) only in a string, where its escape reads back the same.
  return json.replaceAll('##[', '\\u0023#[')
}

/** A Kubernetes Secret holding the value, for `kubectl apply -f -` and a chart's secretName. */
function manifest(own: Record<string, string>, value: string): string {
  const namespace =
    own['k8s-namespace'] === undefined ? '' : `\n  namespace: ${own['k8s-namespace']}`
  const data = Buffer.from(value).toString('base64')
  return `apiVersion: v1\nkind: Secret\nmetadata:\n  name: ${own['k8s-secret']}${namespace}\ntype: Opaque\ndata:\n  ${own['k8s-key'] ?? 'token'}: ${data}`
}
