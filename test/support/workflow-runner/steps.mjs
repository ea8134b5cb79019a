// A `run:` step run by the shell it names, with the fake tools, and the StepRun records of every step.
// @ts-check
import { writeFileSync } from 'node:fs'
import { delimiter, join } from 'node:path'
import { processFiles } from '../file-commands.mjs'
import { prepareStep } from '../runner.mjs'
import { runStepProcess } from '../step-process.mjs'
import { readWorkflowCommands } from '../workflow-commands.mjs'

/** @typedef {import('./types.mjs').StepRun} StepRun */
/** @typedef {import('./types.mjs').WorkflowOptions} WorkflowOptions */

/**
 * The command a Linux runner runs a script file with, by the step's `shell:` (ScriptHandler,
 * ScriptHandlerHelpers in actions/runner; docs/RUNNER.md): none, `bash -e` (no pipefail);
 * `bash`, `bash --noprofile --norc -e -o pipefail`; `sh`, `sh -e`. Any other shell (pwsh,
 * powershell, cmd, python, a command of one's own) is not run here with another: the run
 * fails, loudly, as for a `uses:` it cannot run.
 * @param {string | undefined} shell
 * @param {string} file
 * @param {string} step the step's name, for the error
 * @returns {[string, ...string[]]}
 */
export function shellCommand(shell, file, step) {
  if (shell === undefined || shell === '') return ['bash', '-e', file]
  if (shell === 'bash') return ['bash', '--noprofile', '--norc', '-e', '-o', 'pipefail', file]
  if (shell === 'sh') return ['sh', '-e', file]
  throw new Error(
    `step ${step}: the workflow runner cannot run shell: ${shell} (only bash and sh, as a Linux runner runs them; a step for another shell runs in CI on a runner that has it)`,
  )
}

/**
 * A `run:` step: the script in a file, run by its shell as the runner runs it (shellCommand),
 * in the job's directory with the fake tools first on PATH, after what earlier steps put
 * there; stopped by a cancel or its `timeout-minutes` as any step; its workflow commands and
 * file commands processed as for any step (runner.mjs).
 * @param {{ script: string, shell: string | undefined, name: string }} run
 * @param {Record<string, string>} env
 * @param {{ jobDir: string, path: string[], tools: ReturnType<typeof import('../fake-tools.mjs').installFakeTools>, options: WorkflowOptions, masked: string[], secrets: string[] }} where
 *   `secrets`: the job's, which the runner masks in its log besides what add-mask registers
 * @param {import('../step-process.mjs').ProcessOptions} stop
 * @returns {Promise<StepRun & { env: Record<string, string>, path: string[] }>}
 */
export async function runScript(
  { script, shell, name },
  env,
  { jobDir, path, tools, options, masked, secrets },
  stop,
) {
  const file = join(jobDir, `step-${Math.random().toString(36).slice(2)}.sh`)
  // Before anything runs: a shell it cannot honour fails the run, not the step.
  const command = shellCommand(shell, file, name)
  const step = prepareStep({ dir: jobDir, env, path, action: false })
  try {
    writeFileSync(file, script)
    const ended = await runStepProcess(
      command,
      {
        ...step.env,
        ...tools.env,
        PATH: `${tools.bin}${delimiter}${step.env.PATH ?? ''}`,
        FAKE_TOOLS_FAIL: options.fail ?? '',
        FAKE_GH_CLOSED: (options.closedPullRequests ?? []).join(' '),
      },
      jobDir,
      stop,
    )
    const { stdout, stderr } = ended
    const commands = readWorkflowCommands(
      { stdout, stderr },
      { allowUnsecure: step.env.ACTIONS_ALLOW_UNSECURE_COMMANDS === 'true' },
    )
    masked.push(...commands.masked)
    const after = processFiles(step.files, {}, commands)
    const hidden = [...masked, ...secrets].filter((v) => v !== '')
    const ok =
      ended.exitCode === 0 && !commands.failed && !after.failed && ended.stoppedBy === undefined
    const result = stepRun(ok, after.outputs, maskAll(after.log, hidden), stdout + stderr, {})
    if (ended.stoppedBy === 'cancel') result.outcome = 'cancelled'
    return { ...result, kind: 'run', env: after.env, path: after.path }
  } finally {
    step.cleanup()
  }
}

/**
 * @param {boolean} ok
 * @param {Record<string, string>} outputs
 * @param {string} log
 * @param {string} raw
 * @param {Record<string, string>} inputs
 * @returns {StepRun}
 */
export function stepRun(ok, outputs, log, raw, inputs) {
  const outcome = ok ? 'success' : 'failure'
  return { job: '', name: '', stage: 'main', kind: 'action', outcome, outputs, log, raw, inputs }
}

/**
 * @param {string} job
 * @param {string} name
 * @returns {StepRun}
 */
export function skipped(job, name) {
  return { ...stepRun(true, {}, '', '', {}), job, name, outcome: 'skipped', kind: 'other' }
}

/**
 * What the job log shows: every registered secret as `***`.
 * @param {string} text
 * @param {string[]} secrets
 */
function maskAll(text, secrets) {
  let masked = text
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    masked = masked.split(secret).join('***')
  }
  return masked
}
