// The jobs of a workflow in the order their `needs` give, and the jobs that call a reusable workflow.
// @ts-check
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { NoOperationTraceWriter, parseWorkflow } from '@actions/workflow-parser'
import { parseFileReference } from '@actions/workflow-parser/workflows/file-reference'
import { ROOT } from '../runner.mjs'
import {
  evaluateCondition,
  evaluateMapping,
  evaluateToken,
  evaluateTree,
  evaluateValue,
  jobStatusFunctions,
  mustMapping,
} from './evaluate.mjs'
import { refuseWorkflowDefaults, runJob } from './job.mjs'
import { expandMatrix } from './matrix.mjs'

/** @typedef {import('@actions/workflow-parser/model/workflow-template').WorkflowJob} WorkflowJob */
/** @typedef {import('@actions/workflow-parser/model/workflow-template').ReusableWorkflowJob} ReusableWorkflowJob */
/** @typedef {import('@actions/workflow-parser/templates/tokens/mapping-token').MappingToken} MappingToken */
/** @typedef {{ result: 'success' | 'failure' | 'skipped' | 'cancelled', outputs: Record<string, string> }} JobResult */
/**
 * @typedef {object} Shared what every job of a run shares
 * @property {string} dir
 * @property {ReturnType<typeof import('../fake-tools.mjs').installFakeTools>} tools
 * @property {import('./types.mjs').WorkflowOptions} options
 * @property {import('./types.mjs').WorkflowRun} run
 * @property {Map<string, string>} workflows the reusable workflows called, by `uses:`
 */

/**
 * The workflows a `uses:` job may call: this repository's own, named `./<path>` or, as the
 * examples name them, `your-org/gateway-token-action/<path>@<full SHA>` (the placeholder
 * for a copy of this repository). Anything else is not found, and the workflow invalid.
 * @param {Map<string, string>} workflows where each one read is kept, for its jobs' tokens
 * @returns {import('@actions/workflow-parser/workflows/file-provider').FileProvider}
 */
export function reusableWorkflows(workflows) {
  return {
    getFileContent: async (ref) => {
      const ours =
        !('repository' in ref) ||
        (ref.owner === 'your-org' &&
          ref.repository === 'gateway-token-action' &&
          /^[0-9a-f]{40}$/.test(ref.version))
      if (!ours || !/^\.github\/workflows\/[\w.-]+\.ya?ml$/.test(ref.path)) {
        throw new Error(`no such reusable workflow here: ${JSON.stringify(ref)}`)
      }
      const content = readFileSync(join(ROOT, ref.path), 'utf8')
      const name = 'repository' in ref ? `${ref.owner}/${ref.repository}/${ref.path}` : ref.path
      workflows.set(name, content)
      return { name: ref.path, content }
    },
  }
}

/**
 * Runs jobs, each once the jobs it needs have ended: skipped when its `if:` (success() by
 * default: every job it needs succeeded) is false. A job with a matrix runs once per
 * combination (matrix.mjs), with `matrix` and `strategy`; with `fail-fast` (the default),
 * a failed combination cancels those not run yet. A job with `environment:` sees that
 * environment's secrets and vars over the repository's.
 * @param {WorkflowJob[]} jobs
 * @param {MappingToken} rawJobs the `jobs:` mapping as written, for what the model leaves out
 * @param {Record<string, unknown> & { env: Record<string, string> }} base the contexts every
 *   job sees (github, inputs, vars, secrets, and the workflow's env:)
 * @param {Shared} shared
 * @param {string} [prefix] before each job's id in run.jobs: `<caller> / ` in a called workflow
 * @returns {Promise<Record<string, JobResult>>} each job's result and outputs, by id
 */
export async function runJobs(jobs, rawJobs, base, shared, prefix = '') {
  /** @type {Record<string, JobResult>} */
  const done = {}
  const pending = [...jobs]
  while (pending.length > 0) {
    const next = pending.findIndex((job) => (job.needs ?? []).every((n) => n.value in done))
    if (next < 0) throw new Error(`jobs that need each other: ${pending.map((j) => j.id.value)}`)
    const [job] = pending.splice(next, 1)
    if (job === undefined) break
    const id = job.id.value
    const jobNeeds = (job.needs ?? []).map((need) => need.value)
    const contexts = {
      ...base,
      needs: Object.fromEntries(jobNeeds.map((need) => [need, done[need]])),
      runner: { os: 'Linux', temp: shared.dir },
    }
    const upstream = jobNeeds.map((need) => done[need]?.result)
    const status = upstream.includes('cancelled')
      ? 'cancelled'
      : upstream.every((result) => result === 'success')
        ? 'success'
        : 'failure'
    const statusFunctions = jobStatusFunctions(() => status)
    const noMatrix = { ...contexts, strategy: {}, matrix: {} }
    if (!evaluateCondition(job.if?.expression ?? 'success()', noMatrix, statusFunctions)) {
      done[id] = { result: 'skipped', outputs: {} }
    } else if (job.type === 'reusableWorkflowJob') {
      done[id] = await callWorkflow(job, noMatrix, shared, `${prefix}${id}`)
    } else {
      done[id] = await runCombinations(
        job,
        mustMapping(rawJobs.find(id)),
        contexts,
        shared,
        `${prefix}${id}`,
      )
    }
    shared.run.jobs[`${prefix}${id}`] = done[id].result
  }
  return done
}

/**
 * A job, once per combination of its matrix (once without one), each with its environment.
 * @param {import('@actions/workflow-parser/model/workflow-template').Job} job
 * @param {MappingToken} rawJob
 * @param {Record<string, unknown> & { env: Record<string, string> }} contexts
 * @param {Shared} shared
 * @param {string} label
 * @returns {Promise<JobResult>}
 */
async function runCombinations(job, rawJob, contexts, shared, label) {
  const strategy = /** @type {{ matrix?: unknown, 'fail-fast'?: unknown } | undefined} */ (
    evaluateTree(job.strategy, contexts)
  )
  const combinations = strategy?.matrix === undefined ? [undefined] : expandMatrix(strategy.matrix)
  const failFast = strategy?.['fail-fast'] !== false
  /** @type {JobResult['result'][]} */
  const results = []
  /** @type {Record<string, string>} */
  const outputs = {}
  for (const [index, matrix] of combinations.entries()) {
    const name =
      matrix === undefined ? label : `${label} (${Object.values(matrix).map(String).join(', ')})`
    if (failFast && results.includes('failure')) {
      results.push('cancelled')
      shared.run.jobs[name] = 'cancelled'
      continue
    }
    const scope = {
      ...contexts,
      matrix: matrix ?? {},
      strategy: {
        'fail-fast': failFast,
        'job-index': index,
        'job-total': combinations.length,
        'max-parallel': combinations.length,
      },
    }
    const done = await runJob(
      job,
      rawJob,
      withEnvironment(job, scope, shared.options),
      shared,
      name,
    )
    results.push(done.result)
    if (matrix !== undefined) shared.run.jobs[name] = done.result
    // Of a matrix, the outputs of the combination that ends last win (GitHub's docs).
    Object.assign(outputs, done.outputs)
  }
  const result = results.includes('failure')
    ? 'failure'
    : results.includes('cancelled')
      ? 'cancelled'
      : 'success'
  return { result, outputs }
}

/**
 * The contexts of a job with `environment:`: that environment's secrets and vars over the
 * repository's. An environment the run was not given is an error: its protection rules and
 * secrets are not modelled.
 * @param {import('@actions/workflow-parser/model/workflow-template').Job} job
 * @param {Record<string, unknown> & { env: Record<string, string> }} contexts
 * @param {import('./types.mjs').WorkflowOptions} options
 */
function withEnvironment(job, contexts, options) {
  const environment = evaluateTree(job.environment, contexts)
  const name =
    typeof environment === 'object' && environment !== null
      ? /** @type {{ name?: unknown }} */ (environment).name
      : environment
  // None, or an expression that comes to '' (a reusable workflow's optional input): none.
  if (name === undefined || name === null || name === '') return contexts
  const scoped = options.environments?.[String(name)]
  if (scoped === undefined)
    throw new Error(`the run was given no environment named ${String(name)}`)
  return {
    ...contexts,
    secrets: { .../** @type {object} */ (contexts.secrets), ...scoped.secrets },
    vars: { .../** @type {object} */ (contexts.vars), ...scoped.vars },
  }
}

/**
 * A job that calls a reusable workflow, as GitHub runs it: the caller's `with:` and
 * `secrets:` evaluated with the caller's contexts, each input checked against its declared
 * type; the called jobs with those as `inputs` and `secrets`, the caller's `github` and
 * `vars`; the workflow's outputs from its jobs'. It fails when a called job failed.
 * @param {ReusableWorkflowJob} job
 * @param {Record<string, unknown>} contexts
 * @param {Shared} shared
 * @param {string} id
 * @returns {Promise<JobResult>}
 */
async function callWorkflow(job, contexts, shared, id) {
  const ref = parseFileReference(job.ref.value)
  const name = 'repository' in ref ? `${ref.owner}/${ref.repository}/${ref.path}` : ref.path
  const content = shared.workflows.get(name)
  if (content === undefined || job.jobs === undefined) throw new Error(`${id}: ${name} not read`)
  const parsed = parseWorkflow({ name, content }, new NoOperationTraceWriter())
  const rawJobs = mustMapping(mustMapping(parsed.value).find('jobs'))
  refuseWorkflowDefaults(parsed.value, name)
  const secrets = job['inherit-secrets']
    ? contexts.secrets
    : evaluateMapping(job['secret-values'], contexts)
  const calledInputs = callInputs(job, contexts, id)
  const workflowEnv = evaluateMapping(parsedEnv(parsed), {
    github: contexts.github,
    vars: contexts.vars,
    inputs: calledInputs,
    secrets,
  })
  const called = {
    github: contexts.github,
    vars: contexts.vars,
    inputs: calledInputs,
    secrets,
    env: workflowEnv,
  }
  const done = await runJobs(job.jobs, rawJobs, called, shared, `${id} / `)
  const failed = Object.values(done).some((result) => result.result === 'failure')
  /** @type {Record<string, string>} */
  const outputs = {}
  for (const { key, value } of job.outputs ?? []) {
    outputs[String(key)] = evaluateToken(mustMapping(value).find('value'), {
      ...called,
      jobs: done,
    })
  }
  return { result: failed ? 'failure' : 'success', outputs }
}

/** What an input neither given nor defaulted holds, by type (GitHub's docs). */
const EMPTY = { string: '', number: 0, boolean: false }

/**
 * The `inputs` of a called workflow: each declared input as given in `with:`, else its
 * default, else empty; a value of another type than declared fails the run, as on GitHub.
 * (The parser has checked that every required input is given, and no other.)
 * @param {ReusableWorkflowJob} job
 * @param {Record<string, unknown>} contexts
 * @param {string} id
 */
function callInputs(job, contexts, id) {
  /** @type {Map<string, unknown>} */
  const given = new Map()
  for (const { key, value } of job['input-values'] ?? []) {
    given.set(String(key).toLowerCase(), value)
  }
  /** @type {Record<string, unknown>} */
  const inputs = {}
  for (const { key, value } of job['input-definitions'] ?? []) {
    const name = String(key)
    const spec = mustMapping(value)
    const type = /** @type {keyof typeof EMPTY} */ (evaluateToken(spec.find('type'), {}))
    const token = given.get(name.toLowerCase()) ?? spec.find('default')
    const input = token === undefined ? EMPTY[type] : evaluateValue(token, contexts)
    if (typeof input !== type) {
      throw new Error(`${id}: the input ${name} is a ${type}, given ${JSON.stringify(input)}`)
    }
    inputs[name] = input
  }
  return inputs
}

/**
 * A workflow's own `env:`, as written.
 * @param {ReturnType<typeof parseWorkflow>} parsed
 */
export function parsedEnv(parsed) {
  return mustMapping(parsed.value).find('env')
}
