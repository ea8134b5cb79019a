// @ts-check
/**
 * Runs the committed bundle the way the GitHub runner does (actions/runner):
 * inputs as `INPUT_<NAME>` with action.yml's defaults filled in, a clean environment,
 * `GITHUB_OUTPUT`, `GITHUB_ENV`, `GITHUB_STATE` and `GITHUB_STEP_SUMMARY` files read back
 * with the runner's own rules, workflow commands read from stdout and stderr in both of
 * the runner's syntaxes (workflow-commands.mjs), and the log masked from the moment a
 * value is registered with `::add-mask::`.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'
import { evaluateTemplate } from './expressions.mjs'
import { node24 } from './node24.mjs'
import { readWorkflowCommands } from './workflow-commands.mjs'

export const ROOT = resolve(fileURLToPath(import.meta.url), '../../..')

/**
 * @typedef {object} ActionRun
 * @property {number | null} exitCode
 * @property {string} stdout the raw stdout, as the runner reads it
 * @property {string} stderr
 * @property {string} log what the workflow author sees: commands rendered, secrets masked
 * @property {Record<string, string>} outputs from GITHUB_OUTPUT
 * @property {Record<string, string>} env from GITHUB_ENV
 * @property {Record<string, string>} state from GITHUB_STATE
 * @property {string} summary the contents of GITHUB_STEP_SUMMARY
 * @property {import('./workflow-commands.mjs').WorkflowCommand[]} commands every command the
 *   runner would carry out, from stdout and stderr, in either syntax
 * @property {string[]} masked the values registered by an add-mask the runner carried out, in order
 * @property {string[]} errors messages of ::error:: commands
 * @property {string[]} warnings messages of ::warning:: commands
 * @property {string[]} notices messages of ::notice:: commands
 * @property {{ signal: string, atMs: number }[]} signals the signals the runner sent (cancel),
 *   with when, after the step started
 * @property {number} endedAtMs when the step ended, after it started
 */

/**
 * @typedef {object} RunOptions
 * @property {Record<string, string>} [inputs] as in a workflow's `with:`
 * @property {Record<string, string>} [env] extra environment (RUNNER_DEBUG, proxies, ...)
 * @property {Record<string, string>} [state] saved state, given to a post step as STATE_*
 * @property {'main' | 'post'} [step] which of action.yml's entry points to run
 * @property {'success' | 'failure' | 'cancelled'} [jobStatus] the job's status as the step
 *   sees it (`job.status`: the post step's default of jobStatus); success by default
 * @property {Partial<Record<'GITHUB_OUTPUT' | 'GITHUB_ENV' | 'GITHUB_STATE', 'full' | 'missing'>>} [broken]
 *   runner files that cannot be written: `full` (ENOSPC: /dev/full on Linux) or `missing`
 *   (the path names a file that is not there); they are not read back
 * @property {{ when: () => boolean, first?: 'SIGINT' | 'SIGTERM' }} [cancel] cancel the step as
 *   the runner does, once `when()` holds (looked at every 10 ms): SIGINT, SIGTERM 7.5 s
 *   later, SIGKILL 2.5 s after that (actions/runner's ProcessInvoker); or SIGTERM first
 * @property {number} [timeoutMs] kill the step after this long
 * @property {string} [dir] the job's directory (RUNNER_TEMP, HOME, the workspace), kept after
 *   the step: a test reads the files a step left there, or runs the post step where the
 *   main step ran, as the runner does, and removes it itself. By default a new directory,
 *   removed after the step.
 */

/** @returns {{ inputs: Record<string, { default?: string }>, runs: Record<string, string> }} */
export function actionMetadata() {
  return parse(readFileSync(join(ROOT, 'action.yml'), 'utf8'))
}

/**
 * What the runner prepares for a step: a temporary directory with empty GITHUB_OUTPUT,
 * GITHUB_ENV, GITHUB_STATE and GITHUB_STEP_SUMMARY files, and a clean environment with
 * the inputs as INPUT_* (action.yml's defaults filled in, their expressions evaluated)
 * and saved state as STATE_*.
 * @param {Pick<RunOptions, 'inputs' | 'state' | 'env' | 'dir' | 'jobStatus' | 'broken'>} [options]
 */
export function prepareStep(options = {}) {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'gateway-token-run-'))
  /** @type {Record<'GITHUB_OUTPUT' | 'GITHUB_ENV' | 'GITHUB_STATE' | 'GITHUB_STEP_SUMMARY', string>} */
  const files = {
    GITHUB_OUTPUT: join(dir, 'output'),
    GITHUB_ENV: join(dir, 'env'),
    GITHUB_STATE: join(dir, 'state'),
    GITHUB_STEP_SUMMARY: join(dir, 'summary'),
  }
  for (const file of Object.values(files)) writeFileSync(file, '')
  for (const [name, how] of Object.entries(options.broken ?? {})) {
    const file = /** @type {keyof typeof files} */ (name)
    files[file] = how === 'full' ? '/dev/full' : join(dir, 'gone', file)
  }
  /** @type {Record<string, string>} */
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: dir,
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    RUNNER_TEMP: dir,
    GITHUB_WORKSPACE: dir,
    ...files,
    ...inputEnv(actionMetadata().inputs, options.inputs ?? {}, {
      job: { status: options.jobStatus ?? 'success' },
      runner: { temp: dir, os: process.platform === 'win32' ? 'Windows' : 'Linux' },
      github: { workspace: dir, action: 'gateway-token' },
      strategy: {},
      matrix: {},
    }),
    ...Object.fromEntries(Object.entries(options.state ?? {}).map(([k, v]) => [`STATE_${k}`, v])),
    ...options.env,
  }
  const cleanup = () => {
    if (options.dir === undefined) rmSync(dir, { recursive: true, force: true })
  }
  return { dir, files, env, cleanup }
}

/**
 * Runs one step of the action and collects everything the runner would.
 * @param {RunOptions} [options]
 * @returns {Promise<ActionRun>}
 */
export async function runAction(options = {}) {
  const entry = join(ROOT, actionMetadata().runs[options.step ?? 'main'] ?? '')
  const { dir, files, env, cleanup } = prepareStep(options)
  try {
    const timeoutMs = options.timeoutMs ?? 20_000
    const { exitCode, stdout, stderr, signals, endedAtMs } = await spawnNode(
      entry,
      env,
      dir,
      timeoutMs,
      options.cancel,
    )
    const parsed = readWorkflowCommands({ stdout, stderr }, { debug: env.RUNNER_DEBUG === '1' })
    return {
      exitCode,
      stdout,
      stderr,
      signals,
      endedAtMs,
      ...parsed,
      outputs: readCommandFile(files.GITHUB_OUTPUT, options.broken?.GITHUB_OUTPUT),
      env: readCommandFile(files.GITHUB_ENV, options.broken?.GITHUB_ENV),
      state: readCommandFile(files.GITHUB_STATE, options.broken?.GITHUB_STATE),
      summary: readFileSync(files.GITHUB_STEP_SUMMARY, 'utf8'),
    }
  } finally {
    cleanup()
  }
}

/**
 * The runner sets `INPUT_<NAME>` (upper case, spaces as `_`) for each input given in
 * `with:`, and for each other input that has a default, to that default, its expressions
 * evaluated (action.yml's defaults may use github, job, runner, strategy and matrix),
 * again at each stage of the action: the post step's `${{ job.status }}` is its status then.
 * @param {Record<string, { default?: string }>} declared
 * @param {Record<string, string>} given
 * @param {import('./expressions.mjs').Contexts} [contexts]
 */
function inputEnv(declared, given, contexts = { job: { status: 'success' } }) {
  /** @type {Record<string, string>} */
  const env = {}
  for (const [name, spec] of Object.entries(declared)) {
    if (spec.default !== undefined)
      env[inputVariable(name)] = evaluateTemplate(String(spec.default), contexts)
  }
  for (const [name, value] of Object.entries(given)) env[inputVariable(name)] = value
  return env
}

/** @param {string} name */
function inputVariable(name) {
  return `INPUT_${name.replace(/ /g, '_').toUpperCase()}`
}

/** How long the runner waits after SIGINT before SIGTERM, and after SIGTERM before it kills. */
const SIGINT_TIMEOUT_MS = 7_500
const SIGTERM_TIMEOUT_MS = 2_500

/**
 * @param {string} entry
 * @param {Record<string, string>} env
 * @param {string} cwd
 * @param {number} timeoutMs
 * @param {RunOptions['cancel']} cancel
 * @returns {Promise<{ exitCode: number | null, stdout: string, stderr: string, signals: { signal: string, atMs: number }[], endedAtMs: number }>}
 */
function spawnNode(entry, env, cwd, timeoutMs, cancel) {
  return new Promise((resolvePromise, reject) => {
    const started = Date.now()
    const child = spawn(node24(), [entry], { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    /** @type {{ signal: string, atMs: number }[]} */
    const signals = []
    /** @type {NodeJS.Timeout[]} */
    const timers = []
    /** @param {NodeJS.Signals} signal */
    const send = (signal) => {
      signals.push({ signal, atMs: Date.now() - started })
      child.kill(signal)
    }
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk))
    timers.push(setTimeout(() => child.kill('SIGKILL'), timeoutMs))
    if (cancel !== undefined) {
      const watch = setInterval(() => {
        if (!cancel.when()) return
        clearInterval(watch)
        if (cancel.first === 'SIGTERM') {
          send('SIGTERM')
          timers.push(setTimeout(() => send('SIGKILL'), SIGTERM_TIMEOUT_MS))
          return
        }
        send('SIGINT')
        timers.push(
          setTimeout(() => {
            send('SIGTERM')
            timers.push(setTimeout(() => send('SIGKILL'), SIGTERM_TIMEOUT_MS))
          }, SIGINT_TIMEOUT_MS),
        )
      }, 10)
      timers.push(watch)
    }
    child.on('error', reject)
    child.on('close', (code, signal) => {
      for (const timer of timers) clearTimeout(timer)
      const endedAtMs = Date.now() - started
      if (signal === 'SIGKILL' && !signals.some((sent) => sent.signal === 'SIGKILL'))
        reject(new Error(`the step did not end within ${timeoutMs} ms\n${stdout}`))
      else resolvePromise({ exitCode: code, stdout, stderr, signals, endedAtMs })
    })
  })
}

/**
 * A runner file read back, or nothing for one the step could not write to.
 * @param {string} path
 * @param {'full' | 'missing' | undefined} broken
 */
function readCommandFile(path, broken) {
  return broken === undefined ? parseCommandFile(readFileSync(path, 'utf8')) : {}
}

/**
 * Reads a file command file (GITHUB_OUTPUT, GITHUB_ENV, GITHUB_STATE) with the runner's
 * rules: `NAME=value` lines and `NAME<<DELIMITER` heredocs, whichever marker comes first.
 * @param {string} content
 * @returns {Record<string, string>}
 */
export function parseCommandFile(content) {
  /** @type {Record<string, string>} */
  const values = {}
  const lines = content.split(/\r?\n/)
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? ''
    if (line === '') continue
    const equals = line.indexOf('=')
    const heredoc = line.indexOf('<<')
    if (equals >= 0 && (heredoc < 0 || equals < heredoc)) {
      const name = line.slice(0, equals)
      if (name === '') throw new Error(`invalid file command line: ${line}`)
      values[name] = line.slice(equals + 1)
    } else if (heredoc > 0) {
      const name = line.slice(0, heredoc)
      const delimiter = line.slice(heredoc + 2)
      const end = lines.indexOf(delimiter, i + 1)
      if (delimiter === '' || end < 0) throw new Error(`heredoc for ${name} has no end delimiter`)
      values[name] = lines.slice(i + 1, end).join('\n')
      i = end
    } else {
      throw new Error(`invalid file command line: ${line}`)
    }
  }
  return values
}
