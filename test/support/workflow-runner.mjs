// @ts-check
/**
 * Runs a workflow (a file of examples/, or a README snippet made whole) the way GitHub
 * would, as far as a test needs: parsed and checked by GitHub's own workflow parser, every
 * `if:`, `with:`, `env:` and `outputs:` evaluated by GitHub's expression library, jobs in
 * the order their `needs` give, steps in order, a failed step skipping the rest unless
 * their `if:` says otherwise, and at the end of each job the post steps of the actions it
 * ran, last first, with the job's status. This action's steps run the committed bundle
 * through the runner emulation (runner.mjs) against the fake platform; `run:` steps run
 * with bash as the runner runs them (`bash --noprofile --norc -eo pipefail`), with the fake
 * deploy tools first on PATH (fake-tools.mjs). Other actions (actions/checkout) are no-ops.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  convertWorkflowTemplate,
  isBasicExpression,
  isMapping,
  isSequence,
  isString,
  NoOperationTraceWriter,
  parseWorkflow,
} from '@actions/workflow-parser'
import { truthy } from '@actions/expressions/result'
import { evaluate } from './expressions.mjs'
import { installFakeTools } from './fake-tools.mjs'
import { parseCommandFile, prepareStep, ROOT, runAction } from './runner.mjs'
import { readWorkflowCommands } from './workflow-commands.mjs'

/** How this action is named in examples and snippets (a placeholder), and in CI. */
const THIS_ACTION = /^(?:your-org\/gateway-token-action@[0-9a-f]{40}|\.\/?)$/

/**
 * @typedef {object} WorkflowOptions
 * @property {Record<string, string>} [secrets]
 * @property {Record<string, string>} [vars]
 * @property {string} [event] github.event_name (workflow_dispatch by default)
 * @property {Record<string, unknown>} [payload] github.event
 * @property {Record<string, unknown>} [inputs] workflow_dispatch inputs, over their defaults
 * @property {string} [fail] FAKE_TOOLS_FAIL: the tool calls that fail (`helm upgrade`)
 */

/**
 * @typedef {object} StepRun
 * @property {string} job
 * @property {string} name
 * @property {'main' | 'post'} stage
 * @property {'action' | 'run' | 'other'} kind
 * @property {'success' | 'failure' | 'skipped'} outcome
 * @property {Record<string, string>} outputs
 * @property {string} log what the step printed, as the job log shows it (secrets masked)
 * @property {string} raw what the step printed, unmasked
 * @property {Record<string, string>} inputs the step's `with:`, evaluated
 * @property {Record<string, string>} [env] a run step's GITHUB_ENV, for the steps after it
 */

/**
 * @typedef {object} WorkflowRun
 * @property {Record<string, 'success' | 'failure' | 'skipped'>} jobs each job's result
 * @property {StepRun[]} steps every step of every job, in the order they ran, posts included
 * @property {import('./fake-tools.mjs').ToolCall[]} tools every call of a fake tool
 * @property {string[]} masked every value registered as a secret during the run
 */

/**
 * @param {string} file a workflow, relative to the repository or absolute
 * @param {WorkflowOptions} [options]
 * @returns {Promise<WorkflowRun>}
 */
export async function runWorkflow(file, options = {}) {
  const path = file.startsWith('/') ? file : join(ROOT, file)
  return runWorkflowText(readFileSync(path, 'utf8'), file, options)
}

/**
 * @param {string} content
 * @param {string} name
 * @param {WorkflowOptions} [options]
 * @returns {Promise<WorkflowRun>}
 */
export async function runWorkflowText(content, name, options = {}) {
  const parsed = parseWorkflow({ name, content }, new NoOperationTraceWriter())
  const errors = parsed.context.errors.getErrors()
  if (errors.length > 0 || parsed.value === undefined) {
    throw new Error(`${name} is not a valid workflow: ${errors.map(String).join('; ')}`)
  }
  const template = await convertWorkflowTemplate(parsed.context, parsed.value)
  const raw =
    /** @type {import('@actions/workflow-parser/templates/tokens/template-token').TemplateToken} */ (
      parsed.value
    )
  const root = mustMapping(raw)
  const rawJobs = mustMapping(root.find('jobs'))
  const dir = mkdtempSync(join(tmpdir(), 'gateway-token-workflow-'))
  const tools = installFakeTools(dir)
  /** @type {WorkflowRun} */
  const run = { jobs: {}, steps: [], tools: [], masked: [] }
  try {
    const github = {
      event_name: options.event ?? 'workflow_dispatch',
      event: options.payload ?? {},
      repository: 'your-org/app',
      run_id: '4242',
      run_number: '7',
      run_attempt: '1',
      ref: 'refs/heads/main',
      sha: '0'.repeat(40),
      actor: 'octocat',
      workspace: dir,
    }
    const dispatch = template.events.workflow_dispatch?.inputs ?? {}
    const inputs = {
      ...Object.fromEntries(Object.entries(dispatch).map(([key, input]) => [key, input.default])),
      ...options.inputs,
    }
    /** @type {Record<string, { result: string, outputs: Record<string, string> }>} */
    const needs = {}
    for (const job of template.jobs) {
      if (job.type !== 'job') throw new Error(`${name}: only jobs of steps run here`)
      const jobNeeds = (job.needs ?? []).map((need) => need.value)
      const contexts = {
        github,
        inputs,
        vars: options.vars ?? {},
        secrets: options.secrets ?? {},
        needs: Object.fromEntries(jobNeeds.map((id) => [id, needs[id]])),
        strategy: {},
        matrix: {},
        runner: { os: 'Linux', temp: dir },
      }
      const upstreamOk = jobNeeds.every((id) => needs[id]?.result === 'success')
      const statusFunctions = jobStatusFunctions(() => (upstreamOk ? 'success' : 'failure'))
      const runs = evaluateCondition(job.if?.expression ?? 'success()', contexts, statusFunctions)
      if (!runs) {
        run.jobs[job.id.value] = 'skipped'
        needs[job.id.value] = { result: 'skipped', outputs: {} }
        continue
      }
      const rawJob = mustMapping(rawJobs.find(job.id.value))
      const result = await runJob(job, rawJob, contexts, { dir, tools, options, run })
      run.jobs[job.id.value] = result.result
      needs[job.id.value] = result
    }
    run.tools = tools.calls()
    return run
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/**
 * One job: its steps in order, then the post steps of its actions, last first.
 * @param {import('@actions/workflow-parser/model/workflow-template').Job} job
 * @param {import('@actions/workflow-parser/templates/tokens/mapping-token').MappingToken} rawJob
 * @param {Record<string, unknown>} contexts
 * @param {{ dir: string, tools: ReturnType<typeof installFakeTools>, options: WorkflowOptions, run: WorkflowRun }} shared
 */
async function runJob(job, rawJob, contexts, { dir, tools, options, run }) {
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
      run.steps.push(skipped(job.id.value, stepName))
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
    } else {
      result = stepRun(true, {}, '', '', {})
      result.kind = 'other'
    }
    result.job = job.id.value
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
    run.steps.push({ ...result, job: job.id.value, name: `Post ${post.name}`, stage: 'post' })
  }
  const outputs = evaluateMapping(rawJob.find('outputs'), { ...contexts, steps })
  return { result: status, outputs }
}

/**
 * A `run:` step: the script in a file, run by bash as the runner runs it, in the job's
 * directory with the fake tools first on PATH; GITHUB_OUTPUT and GITHUB_ENV read back.
 * @param {string} script
 * @param {Record<string, string>} env
 * @param {{ jobDir: string, tools: ReturnType<typeof installFakeTools>, options: WorkflowOptions, masked: string[] }} where
 * @returns {Promise<StepRun & { env?: Record<string, string> }>}
 */
async function runScript(script, env, { jobDir, tools, options, masked }) {
  const step = prepareStep({ dir: jobDir })
  const file = join(jobDir, `step-${Math.random().toString(36).slice(2)}.sh`)
  writeFileSync(file, script)
  const { code, stdout, stderr } = await spawnBash(file, jobDir, {
    ...step.env,
    ...tools.env,
    ...env,
    PATH: `${tools.bin}:${process.env.PATH ?? ''}`,
    FAKE_TOOLS_FAIL: options.fail ?? '',
  })
  const commands = readWorkflowCommands({ stdout, stderr })
  masked.push(...commands.masked)
  const secrets = [...masked, ...Object.values(options.secrets ?? {})].filter((v) => v !== '')
  const log = maskAll(stdout + stderr, secrets)
  const result = stepRun(
    code === 0,
    parseCommandFile(readFileSync(step.files.GITHUB_OUTPUT, 'utf8')),
    log,
    stdout + stderr,
    {},
  )
  return {
    ...result,
    kind: 'run',
    env: parseCommandFile(readFileSync(step.files.GITHUB_ENV, 'utf8')),
  }
}

/**
 * @param {string} file
 * @param {string} cwd
 * @param {Record<string, string>} env
 * @returns {Promise<{ code: number | null, stdout: string, stderr: string }>}
 */
function spawnBash(file, cwd, env) {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', file], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk))
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk))
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}

/**
 * @param {boolean} ok
 * @param {Record<string, string>} outputs
 * @param {string} log
 * @param {string} raw
 * @param {Record<string, string>} inputs
 * @returns {StepRun}
 */
function stepRun(ok, outputs, log, raw, inputs) {
  const outcome = ok ? 'success' : 'failure'
  return { job: '', name: '', stage: 'main', kind: 'action', outcome, outputs, log, raw, inputs }
}

/**
 * @param {string} job
 * @param {string} name
 * @returns {StepRun}
 */
function skipped(job, name) {
  return { ...stepRun(true, {}, '', '', {}), job, name, outcome: 'skipped', kind: 'other' }
}

/**
 * The status functions of `if:` (the runner defines them, not the expression library):
 * success() and failure() by the job's status so far; always(); cancelled(), never here.
 * @param {() => string} status
 * @returns {import('./expressions.mjs').FunctionDefinition[]}
 */
function jobStatusFunctions(status) {
  /** @param {string} name @param {() => boolean} value */
  const fn = (name, value) => ({
    name,
    minArgs: 0,
    maxArgs: 0,
    call: () => evaluate(value() ? 'true' : 'false', {}),
  })
  return [
    fn('success', () => status() === 'success'),
    fn('failure', () => status() === 'failure'),
    fn('always', () => true),
    fn('cancelled', () => false),
  ]
}

/**
 * @param {string} expression
 * @param {Record<string, unknown>} contexts
 * @param {import('./expressions.mjs').FunctionDefinition[]} functions
 */
function evaluateCondition(expression, contexts, functions) {
  return truthy(evaluate(expression, contexts, functions))
}

/**
 * A scalar token's value as the runner passes it to a step: a string.
 * @param {unknown} token
 * @param {Record<string, unknown>} contexts
 */
function evaluateToken(token, contexts) {
  const t =
    /** @type {import('@actions/workflow-parser/templates/tokens/template-token').TemplateToken} */ (
      token
    )
  if (isString(t)) return t.value
  if (isBasicExpression(t)) return evaluate(t.expression, contexts).coerceString()
  return String(t)
}

/**
 * A mapping of `with:`, `env:` or `outputs:`, each value evaluated.
 * @param {unknown} token
 * @param {Record<string, unknown>} contexts
 * @returns {Record<string, string>}
 */
function evaluateMapping(token, contexts) {
  if (token === undefined) return {}
  /** @type {Record<string, string>} */
  const values = {}
  for (const { key, value } of mustMapping(token)) {
    values[String(key)] = evaluateToken(value, contexts)
  }
  return values
}

/**
 * @param {unknown} token
 * @returns {import('@actions/workflow-parser/templates/tokens/mapping-token').MappingToken}
 */
function mustMapping(token) {
  const t =
    /** @type {import('@actions/workflow-parser/templates/tokens/template-token').TemplateToken} */ (
      token
    )
  if (t === undefined || !isMapping(t)) throw new Error('expected a mapping in the workflow')
  return t
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
