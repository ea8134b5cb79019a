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
  evaluateValue,
  jobStatusFunctions,
  mustMapping,
} from './evaluate.mjs'
import { runJob } from './job.mjs'

/** @typedef {import('@actions/workflow-parser/model/workflow-template').WorkflowJob} WorkflowJob */
/** @typedef {import('@actions/workflow-parser/model/workflow-template').ReusableWorkflowJob} ReusableWorkflowJob */
/** @typedef {import('@actions/workflow-parser/templates/tokens/mapping-token').MappingToken} MappingToken */
/** @typedef {{ result: 'success' | 'failure' | 'skipped', outputs: Record<string, string> }} JobResult */
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
 * default: every job it needs succeeded) is false.
 * @param {WorkflowJob[]} jobs
 * @param {MappingToken} rawJobs the `jobs:` mapping as written, for what the model leaves out
 * @param {Record<string, unknown>} base the contexts every job sees (github, inputs, vars, secrets)
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
      strategy: {},
      matrix: {},
      runner: { os: 'Linux', temp: shared.dir },
    }
    const upstreamOk = jobNeeds.every((need) => done[need]?.result === 'success')
    const statusFunctions = jobStatusFunctions(() => (upstreamOk ? 'success' : 'failure'))
    if (!evaluateCondition(job.if?.expression ?? 'success()', contexts, statusFunctions)) {
      done[id] = { result: 'skipped', outputs: {} }
    } else if (job.type === 'reusableWorkflowJob') {
      done[id] = await callWorkflow(job, contexts, shared, `${prefix}${id}`)
    } else {
      const rawJob = mustMapping(rawJobs.find(id))
      done[id] = await runJob(job, rawJob, contexts, shared, `${prefix}${id}`)
    }
    shared.run.jobs[`${prefix}${id}`] = done[id].result
  }
  return done
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
  const secrets = job['inherit-secrets']
    ? contexts.secrets
    : evaluateMapping(job['secret-values'], contexts)
  const called = {
    github: contexts.github,
    vars: contexts.vars,
    inputs: callInputs(job, contexts, id),
    secrets,
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
