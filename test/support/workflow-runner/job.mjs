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
  jobStatusFunctions,
  mustMapping,
} from './evaluate.mjs'
import { runScript, skipped, stepRun } from './steps.mjs'

/** @typedef {import('./types.mjs').StepRun} StepRun */
/** @typedef {import('./types.mjs').WorkflowOptions} WorkflowOptions */
/** @typedef {import('./types.mjs').WorkflowRun} WorkflowRun */

/** How this action is named in examples and snippets (a placeholder), and in CI. */
const THIS_ACTION = /^(?:your-org\/gateway-token-action@[0-9a-f]{40}|\.\/?)$/

/**
 * One job: its steps in order, then the post steps of its actions, last first.
 * @param {import('@actions/workflow-parser/model/workflow-template').Job} job
 * @param {import('@actions/workflow-parser/templates/tokens/mapping-token').MappingToken} rawJob
 * @param {Record<string, unknown>} contexts
 * @param {{ dir: string, tools: ReturnType<typeof import('../fake-tools.mjs').installFakeTools>, options: WorkflowOptions, run: WorkflowRun }} shared
 * @param {string} [label] the job in the run's records: `<caller> / <id>` in a called workflow
 * @returns {Promise<{ result: 'success' | 'failure', outputs: Record<string, string> }>}
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
  let status = /** @type {'success' | 'failure'} */ ('success')
  /** @type {Record<string, { outputs: Record<string, string>, outcome: string, conclusion: string }>} */
  const steps = {}
  /** @type {Record<string, string>} variables from GITHUB_ENV of earlier steps */
  const jobEnv = {}
  /** @type {{ inputs: Record<string, string>, state: Record<string, string>, env: Record<string, string>, name: string }[]} */
  const posts = []
  const rawSteps = rawJob.find('steps')
  const masked = run.masked
  const env = (/** @type {Record<string, unknown>} */ scope, /** @type {unknown} */ token) =>
    evaluateMapping(token, scope)
  const jobLevelEnv = env(contexts, rawJob.find('env'))
  for (const [index, step] of job.steps.entries()) {
    const rawStep =
      rawSteps !== undefined && isSequence(rawSteps) ? mustMapping(rawSteps.get(index)) : undefined
    const scope = {
      ...contexts,
      steps,
      job: { status },
      env: { ...jobLevelEnv, ...jobEnv },
    }
    const stepName = step.name === undefined ? step.id : evaluateToken(step.name, contexts)
    const functions = jobStatusFunctions(() => status)
    if (!evaluateCondition(step.if?.expression ?? 'success()', scope, functions)) {
      run.steps.push(skipped(label, stepName))
      continue
    }
    const stepEnv = { ...jobLevelEnv, ...jobEnv, ...env(scope, rawStep?.find('env')) }
    /** @type {StepRun} */
    let result
    if ('run' in step) {
      const script = String(evaluateToken(step.run, scope))
      result = await runScript(script, stepEnv, { jobDir, tools, options, masked })
    } else if (!('uses' in step)) {
      throw new Error(`step ${stepName}: only run: and uses: steps run here`)
    } else if (THIS_ACTION.test(step.uses.value)) {
      const inputs = evaluateMapping(rawStep?.find('with'), scope)
      const ran = await runAction({ inputs, env: stepEnv, dir: jobDir })
      masked.push(...ran.masked)
      posts.unshift({ inputs, state: ran.state, env: stepEnv, name: stepName })
      Object.assign(jobEnv, ran.env)
      result = stepRun(ran.exitCode === 0, ran.outputs, ran.log, ran.stdout + ran.stderr, inputs)
      result.summary = ran.summary
    } else {
      result = stepRun(true, {}, '', '', {})
      result.kind = 'other'
    }
    result.job = label
    result.name = stepName
    run.steps.push(result)
    if (result.kind === 'run') Object.assign(jobEnv, result.env ?? {})
    steps[step.id] = {
      outputs: result.outputs,
      outcome: result.outcome,
      conclusion: result.outcome,
    }
    if (result.outcome === 'failure') status = 'failure'
  }
  // Post steps run last first, whatever happened (post-if: always()), with the job's status.
  for (const post of posts) {
    const ran = await runAction({
      step: 'post',
      inputs: post.inputs,
      state: post.state,
      env: post.env,
      dir: jobDir,
      jobStatus: status,
    })
    masked.push(...ran.masked)
    const result = stepRun(ran.exitCode === 0, {}, ran.log, ran.stdout + ran.stderr, post.inputs)
    result.summary = ran.summary
    run.steps.push({ ...result, job: label, name: `Post ${post.name}`, stage: 'post' })
  }
  run.leftovers[label] = filesLeft(jobDir)
  const outputs = evaluateMapping(rawJob.find('outputs'), { ...contexts, steps })
  return { result: status, outputs }
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
