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
 * A job that calls a reusable workflow of this repository (`uses: ./.github/workflows/...`,
 * or as the examples name it, this repository's placeholder at a SHA) runs the called
 * jobs, loaded and checked by the parser, with the `with:` and `secrets:` it passes.
 *
 * The parts live in workflow-runner/: the jobs and reusable calls (jobs.mjs), one job
 * (job.mjs), `run:` steps and step results (steps.mjs), expressions and tokens
 * (evaluate.mjs) and the types (types.mjs).
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
import { mustMapping } from './workflow-runner/evaluate.mjs'
import { reusableWorkflows, runJobs } from './workflow-runner/jobs.mjs'

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
  /** @type {Map<string, string>} */
  const workflows = new Map()
  const parsed = parseWorkflow({ name, content }, new NoOperationTraceWriter())
  const template =
    parsed.value === undefined
      ? undefined
      : await convertWorkflowTemplate(parsed.context, parsed.value, reusableWorkflows(workflows), {
          fetchReusableWorkflowDepth: 1,
        })
  const errors = parsed.context.errors.getErrors()
  if (errors.length > 0 || parsed.value === undefined || template === undefined) {
    throw new Error(`${name} is not a valid workflow: ${errors.map(String).join('; ')}`)
  }
  const raw =
    /** @type {import('@actions/workflow-parser/templates/tokens/template-token').TemplateToken} */ (
      parsed.value
    )
  const rawJobs = mustMapping(mustMapping(raw).find('jobs'))
  const event = options.event ?? 'workflow_dispatch'
  if (!(event in template.events)) throw new Error(`${name} does not run on ${event}`)
  const dir = mkdtempSync(join(tmpdir(), 'gateway-token-workflow-'))
  const tools = installFakeTools(dir)
  /** @type {WorkflowRun} */
  const run = { jobs: {}, steps: [], tools: [], masked: [], leftovers: {} }
  try {
    const github = {
      event_name: event,
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
    // The inputs context holds workflow_dispatch inputs only in a run of that event.
    const dispatch = event === 'workflow_dispatch' ? template.events.workflow_dispatch : undefined
    const inputs = {
      ...Object.fromEntries(
        Object.entries(dispatch?.inputs ?? {}).map(([key, input]) => [key, input.default]),
      ),
      ...options.inputs,
    }
    const contexts = { github, inputs, vars: options.vars ?? {}, secrets: options.secrets ?? {} }
    await runJobs(template.jobs, rawJobs, contexts, { dir, tools, options, run, workflows })
    run.tools = tools.calls()
    return run
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
