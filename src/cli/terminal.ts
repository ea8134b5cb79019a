// The command line's Runner: inputs from its flags and environment, the log on stderr (scrubbed, one line each, never a runner command), outputs and state in memory, files in a temp dir of its own.
import { mkdtempSync, rmSync, writeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { resolve } from 'node:path'
import { listenForCancel, type Runner } from '../runner/start.js'
import { type Clock, systemClock } from '../shared/time.js'
import { Secrets } from '../shared/secrets.js'
import type { TokenRecord } from '../shared/records.js'
import { neutralizeCommands, oneLine } from '../shared/text.js'
import { inCliWords } from './args.js'
import type { run as mainStep } from '../main.js'
import { InputError } from '../shared/errors.js'

/** Where the command line writes: `out`, stdout (a document, the token); `err`, stderr (the log). */
export type Streams = Record<'out' | 'err', (text: string) => void>

/** Where a command runs: its environment, its clock, where it writes. */
export type Surroundings = { env: NodeJS.ProcessEnv; clock: Clock; streams: Streams }
/**
 * Where gateway-token runs, but in tests: the process's environment, the system's clock,
 * stdout and stderr.
 */
export const SYSTEM: Surroundings = {
  env: process.env,
  clock: systemClock,
  // The real stdout and stderr: only the end-to-end tests, a process of their own, see them.
  // Stryker disable next-line all: see above
  streams: { out: (text) => writeSync(1, text), err: (text) => writeSync(2, text) },
}

/** A text in a line of gateway-token's own on a terminal: one line, never a runner command. */
export const say = (text: string) => neutralizeCommands(oneLine(text))

/**
 * A terminal's Runner over `inputs`, and what a step left in it: its outputs and state. Its
 * files go in a directory of its own under its environment's TMPDIR, else the system's, as an
 * absolute path (exec's COMMAND may change directory before it reads its token file).
 */
export function terminal(inputs: Record<string, string>, { env, streams }: Surroundings) {
  // Every value masked, for what goes to stdout (stdoutScrubber).
  const masked: string[] = []
  // What the runner would mask, scrubbed from every line instead: a terminal masks nothing.
  const secrets = new Secrets((value) => masked.push(value))
  const log = (prefix: string) => (message: string) => {
    streams.err(`${prefix}${say(secrets.scrub(message))}\n`)
  }
  let dir: string | undefined
  const outputs = new Map<string, string>()
  const state = new Map<string, string>()
  const runner: Runner = {
    // A terminal has no job summary to write.
    getInput: (name: string) => (name === 'summary' ? 'false' : (inputs[name]?.trim() ?? '')),
    inputNames: () => Object.keys(inputs).map((name) => name.toUpperCase()),
    // By the whole rule: a runner masks a value's encodings too (base64, escapes).
    setSecret: secrets.add.bind(secrets),
    setFailed: (message: string) => {
      // An input named as the command line spells it: `--older-than`, not `Input 'olderThan'`.
      log('error: ')(inCliWords(message))
    },
    debug: () => undefined,
    info: log(''),
    notice: log('notice: '),
    warning: log('warning: '),
    setOutput: outputs.set.bind(outputs),
    exportVariable: () => undefined,
    saveState: state.set.bind(state),
    getState: (name: string) => state.get(name) ?? '',
    writeSummary: () => Promise.resolve(),
    tempDir: () => (dir ??= mkdtempSync(resolve(env.TMPDIR || tmpdir(), 'gateway-token-'))),
    onCancel: listenForCancel,
  }
  return {
    runner,
    outputs,
    /**
     * The exit code for what a step returned: 0 done; 2 a bad input (nothing was sent; bad
     * usage never gets this far); 1 a step that failed otherwise.
     */
    exitCode: ({ failed, error }: Awaited<ReturnType<typeof mainStep>>) =>
      failed ? (error instanceof InputError ? 2 : 1) : 0,
    /**
     * What scrubs a text for stdout (a document's fields, an id), by the whole rule, of every
     * secret the step masked but the values of `records`, those it is written from, which a
     * document leaves out already, and whose thousands (a list's) would cost seconds on every
     * field. Each distinct text is scrubbed once.
     */
    stdoutScrubber: (records: readonly TokenRecord[]) => {
      const values = new Set(records.map((record) => record.tokenValue))
      const known = new Secrets(() => undefined)
      for (const value of masked) if (!values.has(value)) known.add(value)
      const scrubbed = new Map<string, string>()
      return (text: string) => {
        const clean = scrubbed.get(text) ?? known.scrub(text)
        scrubbed.set(text, clean)
        return clean
      }
    },
    /** Removes the temp dir and what is left in it (a list's records). */
    cleanUp: () => {
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
    },
  }
}
