// @ts-check
/**
 * Runs a workflow (a file of examples/, or a README snippet made whole) the way GitHub
 * would, as far as a test needs, and fails loudly where it cannot: parsed and checked by
 * GitHub's own workflow parser, every `if:`, `with:`, `env:`, `strategy:` and `outputs:`
 * evaluated by GitHub's expression library (a context or a property it does not model is an
 * error, not a null), the workflow's `env:` reaching every job, jobs in the order their
 * `needs` give, a matrix expanded into its combinations (lists, include, exclude, fromJSON
 * of a job's output), secrets and vars scoped by `environment:`, steps in order, a failed
 * or cancelled step skipping the rest unless their `if:` says otherwise, and at the end of
 * each job the post steps of the actions it ran, last first, with the job's status and
 * env then, their `with:` evaluated again. This action's steps run the committed bundle
 * through the runner emulation (runner.mjs) against the fake platform; `run:` steps run with
 * the shell a Linux runner would use (`bash -e` when none is named, `bash --noprofile --norc
 * -eo pipefail` for `shell: bash`, `sh -e`), with the fake deploy tools first on PATH
 * (fake-tools.mjs), and any other shell is an error; both get the runner's file and workflow
 * commands, a cancel (`options.cancel`) and `timeout-minutes`. actions/checkout is the job's
 * directory; a local composite action (`uses: ./path`) runs its steps as the runner does,
 * the post steps of the actions in it at the end of the job; any other `uses:` is an error.
 * A job that calls a reusable workflow of this repository
 * (`uses: ./.github/workflows/...`, or as the examples name it, this repository's
 * placeholder at a SHA) runs the called jobs, loaded and checked by the parser, with the
 * `with:` and `secrets:` it passes. Job outputs holding a secret are dropped, as the
 * runner drops them.
 *
 * The facts each part follows, with the runner's source: docs/RUNNER.md. The parts live in
 * workflow-runner/: the jobs, matrices, environments and reusable calls (jobs.mjs,
 * matrix.mjs), one job (job.mjs), a list of steps (step-list.mjs), what a `uses:` names
 * (uses.mjs), composite actions (composite.mjs), this action's main and post steps
 * (action-step.mjs), `run:` steps, their shells and step results (steps.mjs), expressions
 * and tokens (evaluate.mjs) and the types (types.mjs).
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
import { evaluateMapping, mustMapping } from './workflow-runner/evaluate.mjs'
import { refuseWorkflowDefaults } from './workflow-runner/job.mjs'
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
  refuseWorkflowDefaults(raw, name)
  const event = options.event ?? 'workflow_dispatch'
  if (!(event in template.events)) throw new Error(`${name} does not run on ${event}`)
  const dir = mkdtempSync(join(tmpdir(), 'gateway-token-workflow-'))
  const tools = installFakeTools(dir)
  /** @type {WorkflowRun} */
  const run = { jobs: {}, warnings: [], steps: [], tools: [], masked: [], leftovers: {} }
  try {
    // The job's GITHUB_TOKEN: github.token and secrets.GITHUB_TOKEN, masked like any secret.
    const token = `ghs_${'0123456789abcdefghijkl'.repeat(2)}`
    const github = {
      token,
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
    const secrets = { GITHUB_TOKEN: token, ...options.secrets }
    const base = { github, inputs, vars: options.vars ?? {}, secrets }
    // The workflow's env: reaches every job and step; it may use github, inputs, vars, secrets.
    const contexts = { ...base, env: evaluateMapping(mustMapping(raw).find('env'), base) }
    await runJobs(template.jobs, rawJobs, contexts, { dir, tools, options, run, workflows })
    run.tools = tools.calls()
    return run
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
