// @ts-check
/**
 * Runs the committed bundle the way the GitHub runner does (actions/runner; the facts, with
 * the runner's file and function each is read from, in docs/RUNNER.md): inputs as `INPUT_<NAME>` with action.yml's defaults filled in
 * and evaluated at each stage, a clean environment, new GITHUB_OUTPUT, GITHUB_ENV,
 * GITHUB_STATE, GITHUB_PATH and GITHUB_STEP_SUMMARY files read back with the runner's rules
 * (file-commands.mjs: a malformed one fails the step, even with exit code 0), workflow
 * commands read from stdout and stderr in both of the runner's syntaxes and carried out
 * (workflow-commands.mjs: set-output and save-state applied, set-env and add-path refused),
 * the log masked from the moment a value is registered, annotations capped as the runner
 * caps them, and a cancel or `timeout-minutes` stopping the process with the runner's
 * signals (step-process.mjs).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { randomUUID } from 'node:crypto'
import { tmpdir } from 'node:os'
import { delimiter, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parse } from 'yaml'
import { evaluateTemplate } from './expressions.mjs'
import { processFiles } from './file-commands.mjs'
import { node24 } from './node24.mjs'
import { runStepProcess } from './step-process.mjs'
import { readWorkflowCommands } from './workflow-commands.mjs'

export { parseCommandFile } from './file-commands.mjs'

export const ROOT = resolve(fileURLToPath(import.meta.url), '../../..')

/**
 * @typedef {object} ActionRun
 * @property {number | null} exitCode
 * @property {'success' | 'failure' | 'cancelled'} outcome the step's result as the runner
 *   sets it: failure for an exit code other than 0, a refused command, a file command it
 *   could not process, or `timeout-minutes`; cancelled when the job was cancelled
 * @property {string} stdout the raw stdout, as the runner reads it
 * @property {string} stderr
 * @property {string} log what the workflow author sees: commands rendered, secrets masked
 * @property {Record<string, string>} outputs from GITHUB_OUTPUT, over `set-output` commands
 * @property {Record<string, string>} env from GITHUB_ENV (NODE_OPTIONS refused)
 * @property {Record<string, string>} state from GITHUB_STATE, over `save-state` commands
 * @property {string[]} path the directories GITHUB_PATH puts before PATH, latest first
 * @property {string} summary the contents of GITHUB_STEP_SUMMARY
 * @property {import('./workflow-commands.mjs').WorkflowCommand[]} commands every command the
 *   runner would carry out, from stdout and stderr, in either syntax
 * @property {string[]} masked the values registered by an add-mask the runner carried out, in order
 * @property {string[]} errors messages of the step's ::error:: commands, every one, unmasked
 * @property {string[]} warnings messages of ::warning:: commands
 * @property {string[]} notices messages of ::notice:: commands
 * @property {import('./workflow-commands.mjs').Annotations} annotations what the runner keeps
 *   as annotations, its own errors included: at most 10 of a type, masked, cut to 4,096
 * @property {{ signal: string, atMs: number }[]} signals the signals the runner sent (cancel,
 *   timeout-minutes), with when, after the step started
 * @property {number} endedAtMs when the step ended, after it started
 */

/**
 * @typedef {object} RunOptions
 * @property {Record<string, string>} [inputs] as in a workflow's `with:`, evaluated for this
 *   stage: the runner evaluates `with:` again for the post step, with the contexts then (the
 *   workflow runner does so); action.yml's defaults are evaluated here
 * @property {Record<string, string>} [env] the step's environment besides the runner's own:
 *   the job's env and GITHUB_ENV of earlier steps (RUNNER_DEBUG, proxies, ...)
 * @property {string[]} [path] directories earlier steps put before PATH (GITHUB_PATH)
 * @property {Record<string, string>} [state] saved state, given to a post step as STATE_*
 * @property {'main' | 'post'} [step] which of action.yml's entry points to run
 * @property {string} [script] a script to run instead, as a step of another action: the
 *   emulation's own tests give it what the action never does (a CRLF file, set-env)
 * @property {'success' | 'failure' | 'cancelled'} [jobStatus] the job's status as the step
 *   sees it (`job.status`: the post step's default of jobStatus; inside a composite action
 *   too, the job's, not the action's: docs/RUNNER.md); success by default
 * @property {Partial<Record<'GITHUB_OUTPUT' | 'GITHUB_ENV' | 'GITHUB_STATE', 'full' | 'missing' | 'folder'>>} [broken]
 *   runner files that cannot be written: `full` (ENOSPC: /dev/full on Linux), `missing`
 *   (the path names a file that is not there) or `folder` (EISDIR); they are not read back
 * @property {import('./step-process.mjs').ProcessOptions['cancel']} [cancel] cancel the step
 * @property {number} [timeoutMinutes] the step's `timeout-minutes`
 * @property {number} [minuteMs] how long a minute of it lasts here (60,000 by default)
 * @property {number} [timeoutMs] a test's guard: a step that outlives it is killed, an error
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
 * What the runner prepares for a step (FileCommandManager.InitializeFiles): a directory
 * with new, empty GITHUB_OUTPUT, GITHUB_ENV, GITHUB_STATE, GITHUB_PATH and
 * GITHUB_STEP_SUMMARY files, and a clean environment: PATH with what earlier steps put
 * before it, the inputs as INPUT_* (action.yml's defaults filled in, their expressions
 * evaluated), saved state as STATE_*, and the step's env.
 * @param {Pick<RunOptions, 'inputs' | 'state' | 'env' | 'path' | 'dir' | 'jobStatus' | 'broken'> & { action?: boolean }} [options]
 *   `action: false` for a `run:` step: no INPUT_* of this action
 */
export function prepareStep(options = {}) {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'gateway-token-run-'))
  // RUNNER_TEMP/_runner_file_commands/<prefix><guid>, new for each step.
  const commands = join(dir, '_runner_file_commands')
  mkdirSync(commands, { recursive: true })
  const guid = randomUUID()
  /** @type {Record<'GITHUB_OUTPUT' | 'GITHUB_ENV' | 'GITHUB_STATE' | 'GITHUB_PATH' | 'GITHUB_STEP_SUMMARY', string>} */
  const files = {
    GITHUB_OUTPUT: join(commands, `set_output_${guid}`),
    GITHUB_ENV: join(commands, `set_env_${guid}`),
    GITHUB_STATE: join(commands, `save_state_${guid}`),
    GITHUB_PATH: join(commands, `add_path_${guid}`),
    GITHUB_STEP_SUMMARY: join(commands, `step_summary_${guid}`),
  }
  for (const file of Object.values(files)) writeFileSync(file, '')
  for (const [name, how] of Object.entries(options.broken ?? {})) {
    const file = /** @type {keyof typeof files} */ (name)
    if (how === 'folder') {
      files[file] = join(commands, `${file}-a-folder`)
      mkdirSync(files[file])
    } else files[file] = how === 'full' ? '/dev/full' : join(dir, 'gone', file)
  }
  /** @type {Record<string, string>} */
  const env = {
    ...options.env,
    // The job's PATH (its env, else the runner's), with what earlier steps put before it.
    PATH: [...(options.path ?? []), options.env?.PATH ?? process.env.PATH ?? ''].join(delimiter),
    HOME: dir,
    CI: 'true',
    GITHUB_ACTIONS: 'true',
    RUNNER_TEMP: dir,
    GITHUB_WORKSPACE: dir,
    ...files,
    ...(options.action !== false &&
      inputEnv(actionMetadata().inputs, options.inputs ?? {}, {
        job: { status: options.jobStatus ?? 'success' },
        runner: { temp: dir, os: process.platform === 'win32' ? 'Windows' : 'Linux' },
        github: { workspace: dir, action: 'gateway-token' },
        strategy: {},
        matrix: {},
      })),
    ...Object.fromEntries(Object.entries(options.state ?? {}).map(([k, v]) => [`STATE_${k}`, v])),
  }
  // The runner deletes a step's files when it makes the next step's (InitializeFiles), and
  // the whole of RUNNER_TEMP at the end of the job: nothing of them outlives the step here.
  const cleanup = () => {
    if (options.dir === undefined) rmSync(dir, { recursive: true, force: true })
    else rmSync(commands, { recursive: true, force: true })
  }
  return { dir, files, env, cleanup }
}

/**
 * Runs one step of the action and collects everything the runner would.
 * @param {RunOptions} [options]
 * @returns {Promise<ActionRun>}
 */
export async function runAction(options = {}) {
  const entry = options.script ?? join(ROOT, actionMetadata().runs[options.step ?? 'main'] ?? '')
  const { dir, files, env, cleanup } = prepareStep(options)
  try {
    const ended = await runStepProcess([node24(), entry], env, dir, {
      ...(options.cancel && { cancel: options.cancel }),
      timeoutMinutes: options.timeoutMinutes ?? 0,
      minuteMs: options.minuteMs ?? 60_000,
      hangMs: options.timeoutMs ?? 20_000,
    })
    const { exitCode, stdout, stderr, signals, endedAtMs, stoppedBy } = ended
    const parsed = readWorkflowCommands(
      { stdout, stderr },
      {
        debug: env.RUNNER_DEBUG === '1',
        allowUnsecure: env.ACTIONS_ALLOW_UNSECURE_COMMANDS === 'true',
      },
    )
    const after = processFiles(files, options.broken ?? {}, parsed)
    if (stoppedBy === 'timeout') {
      after.runnerError(
        `The action '${options.step === 'post' ? 'Post ' : ''}gateway-token' has timed out after ${Math.trunc(options.timeoutMinutes ?? 0)} minutes.`,
      )
    }
    const failed = exitCode !== 0 || parsed.failed || after.failed || stoppedBy === 'timeout'
    return {
      exitCode,
      outcome: stoppedBy === 'cancel' ? 'cancelled' : failed ? 'failure' : 'success',
      stdout,
      stderr,
      signals,
      endedAtMs,
      ...parsed,
      log: after.log,
      outputs: after.outputs,
      env: after.env,
      state: after.state,
      path: after.path,
      summary: after.summary,
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
