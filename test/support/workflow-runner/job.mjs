// One job of a workflow: its steps in order, this action's through the runner, then its posts.
// @ts-check
import { mkdtempSync, readdirSync, readFileSync, symlinkSync } from 'node:fs'
import { join, relative } from 'node:path'
import { isSequence } from '@actions/workflow-parser'
import { ROOT, runAction } from '../runner.mjs'
import {
  evaluateCondition,
  evaluateMapping,
  evaluateToken,
  evaluateTree,
  jobStatusFunctions,
  mustMapping,
} from './evaluate.mjs'
import { runScript, skipped, stepRun } from './steps.mjs'

/** @typedef {import('./types.mjs').StepRun} StepRun */
/** @typedef {import('./types.mjs').WorkflowOptions} WorkflowOptions */
/** @typedef {import('./types.mjs').WorkflowRun} WorkflowRun */
/** @typedef {'success' | 'failure' | 'cancelled'} JobStatus */

/** How this action is named in examples and snippets (a placeholder), and in CI. */
const THIS_ACTION = /^(?:your-org\/gateway-token-action@[0-9a-f]{40}|\.\/?)$/
/** The one other action the examples use: a checkout, which the job's directory stands for. */
const CHECKOUT = /^actions\/checkout@[0-9a-f]{40}$/

/**
 * One job: its steps in order, then the post steps of its actions, last first, with the
 * job's status then (StepsRunner: failure after a failed step, cancelled on a cancel, which
 * wins; `continue-on-error` leaves it). A step it cannot run (any other `uses:`) fails the
 * run, loudly: an example must not pass with a step that did nothing.
 * @param {import('@actions/workflow-parser/model/workflow-template').Job} job
 * @param {import('@actions/workflow-parser/templates/tokens/mapping-token').MappingToken} rawJob
 * @param {Record<string, unknown> & { env: Record<string, string> }} contexts the job's, the
 *   workflow's `env:` as `env`
 * @param {{ dir: string, tools: ReturnType<typeof import('../fake-tools.mjs').installFakeTools>, options: WorkflowOptions, run: WorkflowRun }} shared
 * @param {string} [label] the job in the run's records: `<caller> / <id>` in a called workflow
 * @returns {Promise<{ result: JobStatus, outputs: Record<string, string> }>}
 */
export async function runJob(
  job,
  rawJob,
  contexts,
  { dir, tools, options, run },
  label = job.id.value,
) {
  const jobDir = mkdtempSync(join(dir, `${job.id.value}-`))
  // A checkout of the repository: examples/ where the workflows expect it.
  symlinkSync(join(ROOT, 'examples'), join(jobDir, 'examples'))
  /** @type {JobStatus} */
  let status = 'success'
  /** @type {Record<string, { outputs: Record<string, string>, outcome: string, conclusion: string }>} */
  const steps = {}
  /** The job's env: the workflow's, then its own; then GITHUB_ENV of each step, for later ones. */
  const jobEnv = { ...contexts.env, ...evaluateMapping(rawJob.find('env'), contexts) }
  /** @type {string[]} GITHUB_PATH of earlier steps, latest first */
  let path = []
  /** @type {{ inputs: Record<string, string>, state: Record<string, string>, stepEnv: Record<string, string>, name: string, timeoutMinutes: number }[]} */
  const posts = []
  const rawSteps = rawJob.find('steps')
  const masked = run.masked
  // The runner masks every secret of the job, its environment's included, in every step's log.
  const secrets = Object.values(/** @type {Record<string, string>} */ (contexts.secrets ?? {}))
  const minuteMs = options.minuteMs ?? 60_000
  for (const [index, step] of job.steps.entries()) {
    const rawStep =
      rawSteps !== undefined && isSequence(rawSteps) ? mustMapping(rawSteps.get(index)) : undefined
    const scope = { ...contexts, steps, job: { status }, env: jobEnv }
    const stepName = step.name === undefined ? step.id : evaluateToken(step.name, scope)
    const functions = jobStatusFunctions(() => status)
    if (!evaluateCondition(step.if?.expression ?? 'success()', scope, functions)) {
      run.steps.push(skipped(label, stepName))
      continue
    }
    const stepEnv = evaluateMapping(rawStep?.find('env'), scope)
    const timeoutMinutes = Number(evaluateTree(rawStep?.find('timeout-minutes'), scope) ?? 0)
    const started = Date.now()
    const cancel =
      options.cancel?.step === stepName
        ? { when: () => Date.now() - started >= (options.cancel?.afterMs ?? 0) }
        : undefined
    const stop = { ...(cancel && { cancel }), timeoutMinutes, minuteMs }
    const env = { ...jobEnv, ...stepEnv }
    /** @type {StepRun & { path?: string[] }} */
    let result
    if ('run' in step) {
      const script = String(evaluateToken(step.run, scope))
      const where = { jobDir, path, tools, options, masked, secrets }
      result = await runScript(script, env, where, stop)
      Object.assign(jobEnv, result.env ?? {})
    } else if (!('uses' in step)) {
      throw new Error(`step ${stepName}: only run: and uses: steps run here`)
    } else if (THIS_ACTION.test(step.uses.value)) {
      const inputs = evaluateMapping(rawStep?.find('with'), scope)
      const ran = await runAction({ inputs, env, path, dir: jobDir, ...stop })
      masked.push(...ran.masked)
      posts.unshift({ inputs, state: ran.state, stepEnv, name: stepName, timeoutMinutes })
      Object.assign(jobEnv, ran.env)
      result = stepRun(
        ran.outcome === 'success',
        ran.outputs,
        ran.log,
        ran.stdout + ran.stderr,
        inputs,
      )
      if (ran.outcome === 'cancelled') result.outcome = 'cancelled'
      result.summary = ran.summary
      result.path = ran.path
    } else if (CHECKOUT.test(step.uses.value)) {
      result = stepRun(true, {}, '', '', {})
      result.kind = 'other'
    } else {
      throw new Error(
        `step ${stepName}: the workflow runner cannot run uses: ${step.uses.value} (only this action and actions/checkout)`,
      )
    }
    path = [...(result.path ?? []), ...path]
    result.job = label
    result.name = stepName
    run.steps.push(result)
    const continues = evaluateTree(rawStep?.find('continue-on-error'), scope) === true
    const conclusion = result.outcome === 'failure' && continues ? 'success' : result.outcome
    steps[step.id] = { outputs: result.outputs, outcome: result.outcome, conclusion }
    if (result.outcome === 'cancelled') status = 'cancelled'
    else if (conclusion === 'failure' && status === 'success') status = 'failure'
  }
  // Post steps run last first, whatever happened (post-if: always()), with the job's status
  // and env then (GITHUB_ENV of every step, the main step's included), and the step's own.
  for (const post of posts) {
    const ran = await runAction({
      step: 'post',
      inputs: post.inputs,
      state: post.state,
      env: { ...jobEnv, ...post.stepEnv },
      path,
      dir: jobDir,
      jobStatus: status,
      timeoutMinutes: post.timeoutMinutes,
      minuteMs,
    })
    masked.push(...ran.masked)
    const result = stepRun(
      ran.outcome === 'success',
      {},
      ran.log,
      ran.stdout + ran.stderr,
      post.inputs,
    )
    result.summary = ran.summary
    run.steps.push({ ...result, job: label, name: `Post ${post.name}`, stage: 'post' })
  }
  run.leftovers[label] = filesLeft(jobDir)
  const outputs = jobOutputs(evaluateMapping(rawJob.find('outputs'), { ...contexts, steps }), run)
  return { result: status, outputs }
}

/**
 * A job's outputs as the runner keeps them (JobExtension.FinalizeJob): an empty one skipped,
 * and one that holds a secret (the masker would change it) skipped with a warning.
 * @param {Record<string, string>} outputs
 * @param {WorkflowRun} run
 */
function jobOutputs(outputs, run) {
  /** @type {Record<string, string>} */
  const kept = {}
  for (const [name, value] of Object.entries(outputs)) {
    if (value === '') continue
    if (run.masked.some((secret) => secret !== '' && value.includes(secret))) {
      run.warnings.push(`Skip output '${name}' since it may contain secret.`)
      continue
    }
    kept[name] = value
  }
  return kept
}

/**
 * The files a job left in its directory (its RUNNER_TEMP, HOME and workspace) after its
 * post steps, by path relative to it, with what they hold; the checkout's link not followed.
 * @param {string} root
 * @param {string} [dir]
 * @param {Record<string, string>} [files]
 * @returns {Record<string, string>}
 */
function filesLeft(root, dir = root, files = /** @type {Record<string, string>} */ ({})) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) filesLeft(root, path, files)
    else if (entry.isFile()) files[relative(root, path)] = readFileSync(path, 'utf8')
  }
  return files
}
