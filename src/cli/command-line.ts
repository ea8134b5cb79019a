// The command line: a command run as the action's main step on a terminal, the token where it was asked or a JSON document on stdout, and an exit code.
import packageJson from '../../package.json' with { type: 'json' }
import { run as mainStep } from '../main.js'
import type { Outcome } from '../operations/index.js'
import { ActionError, toFile } from '../shared/errors.js'
import { publicJson } from '../shared/records.js'
import { systemClock } from '../shared/time.js'
import { writeTokenFile } from '../shared/token-files.js'
import { readArgs, USAGE } from './args.js'
import { exec } from './exec.js'
import { STANDARD_STREAMS, terminal, type Surroundings } from './terminal.js'

/** Runs `gateway-token` with `args` (after the program's name); returns its exit code. */
export async function commandLine(
  args: readonly string[],
  {
    env = process.env,
    clock = systemClock,
    streams = STANDARD_STREAMS,
  }: Partial<Surroundings> = {},
): Promise<number> {
  let invocation: ReturnType<typeof readArgs>
  try {
    invocation = readArgs(args, env)
  } catch (error) {
    if (!(error instanceof ActionError)) throw error
    streams.err(`error: ${error.message}\n`)
    return 2
  }
  if (invocation === 'help' || invocation === 'version') {
    streams.out(`${invocation === 'help' ? USAGE : packageJson.version}\n`)
    return 0
  }
  if (invocation.command === 'exec') return exec(invocation, { env, clock, streams })
  const { runner, exitCode, cleanUp } = terminal(
    { ...invocation.inputs, summary: 'false' },
    streams,
  )
  try {
    const { error } = await mainStep(runner, clock, (outcome) => {
      const text = stdoutOf(outcome, invocation.own)
      // A failure here fails the step as a runner file that cannot be written does (handOnFailed).
      if (text !== undefined)
        toFile('stdout', () => {
          streams.out(`${text}\n`)
        })
    })
    return exitCode(error)
  } finally {
    cleanUp()
  }
}

/**
 * What a result puts on stdout, after the log's lines: a create's token where it was asked
 * (written here to --token-file), or the JSON document of `--json`; else nothing.
 */
function stdoutOf({ result, task }: Outcome, own: Record<string, string>): string | undefined {
  const json = own.json !== undefined
  if (result.operation === 'create') {
    const { token } = result
    const value = token.tokenValue ?? ''
    const file = own['token-file']
    if (file !== undefined)
      toFile(`--token-file ${file}`, () => {
        writeTokenFile(file, value)
      })
    if (own['k8s-secret'] !== undefined) return manifest(own, value)
    if (own['print-value'] !== undefined && !json) return value
    return json ? publicJson(token, own['print-value'] ? ['tokenValue'] : []) : token.id
  }
  if (!json) return undefined
  switch (result.operation) {
    case 'revoke':
      return publicJson(result.token)
    case 'list':
      return publicJson(result.tokens)
    case 'audit':
      return publicJson({ findings: result.findings, undated: result.undated }, [
        'findings',
        'undated',
      ])
  }
  const { revoked, kept, notRevoked, left, unknown } = result
  const dryRun = task.operation === 'cleanup' && task.dryRun ? { dryRun: true } : {}
  const document = {
    ...dryRun,
    revoked,
    kept: kept.map(({ token }) => token),
    notRevoked: notRevoked.map(({ token }) => token),
    left,
    unknown,
  }
  return publicJson(document, Object.keys(document))
}

/** A Kubernetes Secret holding the value, for `kubectl apply -f -` and a chart's secretName. */
function manifest(own: Record<string, string>, value: string): string {
  const namespace =
    own['k8s-namespace'] === undefined ? '' : `\n  namespace: ${own['k8s-namespace']}`
  const data = Buffer.from(value).toString('base64')
  return `apiVersion: v1\nkind: Secret\nmetadata:\n  name: ${own['k8s-secret']}${namespace}\ntype: Opaque\ndata:\n  ${own['k8s-key'] ?? 'token'}: ${data}`
}
