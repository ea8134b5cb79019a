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
 *
 * The parts live in workflow-runner/: one job (job.mjs), `run:` steps and step results
 * (steps.mjs), expressions and tokens (evaluate.mjs) and the types (types.mjs).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  convertWorkflowTemplate,
  NoOperationTraceWriter,
  parseWorkflow,
} from '@actions/workflow-parser'
import { installFakeTools } from './fake-tools.mjs'
import { ROOT } from './runner.mjs'
import { evaluateCondition, jobStatusFunctions, mustMapping } from './workflow-runner/evaluate.mjs'
import { runJob } from './workflow-runner/job.mjs'

/** @typedef {import('./workflow-runner/types.mjs').WorkflowOptions} WorkflowOptions */
/** @typedef {import('./workflow-runner/types.mjs').StepRun} StepRun */
/** @typedef {import('./workflow-runner/types.mjs').WorkflowRun} WorkflowRun */

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
