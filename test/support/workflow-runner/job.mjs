// One job of a workflow: its steps in order (step-list.mjs), then its post steps, and its outputs.
// @ts-check
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { isSequence } from '@actions/workflow-parser'
import { ROOT } from '../runner.mjs'
import { runPosts } from './action-step.mjs'
import { evaluateMapping, evaluateTree, mustMapping } from './evaluate.mjs'
import { runSteps } from './step-list.mjs'

/** @typedef {import('./types.mjs').WorkflowRun} WorkflowRun */
/** @typedef {import('./types.mjs').Job} Job */
/** @typedef {import('./types.mjs').Frame} Frame */
/** @typedef {import('./types.mjs').JobStatus} JobStatus */

/**
 * One job: its steps in order (step-list.mjs), then the post steps of its actions, last
 * registered first, with the job's status then (StepsRunner: failure after a failed step,
 * cancelled on a cancel, which wins; `continue-on-error` leaves it). A step it cannot run
 * (another action, a shell it has not) fails the run, loudly: an example must not pass with
 * a step that did nothing.
 * @param {import('@actions/workflow-parser/model/workflow-template').Job} job
 * @param {import('@actions/workflow-parser/templates/tokens/mapping-token').MappingToken} rawJob
 * @param {Record<string, unknown> & { env: Record<string, string> }} contexts the job's, the
 *   workflow's `env:` as `env`
 * @param {Job['shared']} shared
 * @param {string} [label] the job in the run's records: `<caller> / <id>` in a called workflow
 * @returns {Promise<{ result: JobStatus, outputs: Record<string, string> }>}
 */
export async function runJob(job, rawJob, contexts, shared, label = job.id.value) {
  const dir = mkdtempSync(join(shared.dir, `${job.id.value}-`))
  // A checkout of the repository: examples/ where the workflows expect it.
  symlinkSync(join(ROOT, 'examples'), join(dir, 'examples'))
  for (const [path, content] of Object.entries(shared.options.files ?? {})) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), content)
  }
  const { env: workflowEnv, ...rest } = contexts
  /** @type {Job} */
  const state = {
    label,
    dir,
    // The job's env: the workflow's, then its own; then GITHUB_ENV of each step, for later ones.
    env: { ...workflowEnv, ...evaluateMapping(rawJob.find('env'), contexts) },
    path: [],
    status: 'success',
    // The runner masks every secret of the job, its environment's included, in every step's log.
    secrets: Object.values(/** @type {Record<string, string>} */ (contexts.secrets ?? {})),
    shared,
  }
  /** @type {Frame} */
  const frame = {
    contexts: rest,
    steps: {},
    env: {},
    processEnv: {},
    posts: [],
    shell: defaultShell(rawJob, contexts),
    status: () => state.status,
    ended: (conclusion) => {
      if (conclusion === 'cancelled') state.status = 'cancelled'
      else if (conclusion === 'failure' && state.status === 'success') state.status = 'failure'
    },
  }
  const rawSteps = rawJob.find('steps')
  const raw = job.steps.map((_, index) =>
    rawSteps !== undefined && isSequence(rawSteps) ? mustMapping(rawSteps.get(index)) : undefined,
  )
  await runSteps({ steps: job.steps, raw }, frame, state)
  await runPosts(frame.posts, state)
  shared.run.leftovers[label] = filesLeft(dir)
  const scope = { ...contexts, steps: frame.steps }
  const outputs = jobOutputs(evaluateMapping(rawJob.find('outputs'), scope), shared.run)
  return { result: state.status, outputs }
}

/**
 * The shell of a `run:` step that names none: the job's `defaults.run.shell`, else none (the
 * runner's default). `working-directory` there is not modelled: it fails the run.
 * @param {import('@actions/workflow-parser/templates/tokens/mapping-token').MappingToken} rawJob
 * @param {Record<string, unknown>} contexts
 */
function defaultShell(rawJob, contexts) {
  const run = evaluateTree(rawJob.find('defaults'), contexts)
  const defaults =
    /** @type {{ run?: { shell?: string, 'working-directory'?: string } } | undefined} */ (run)
  if (defaults?.run?.['working-directory'] !== undefined)
    throw new Error('the workflow runner does not model defaults.run.working-directory')
  return defaults?.run?.shell
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

/**
 * A workflow's own `defaults:` (a shell for every `run:` step of it) is not modelled: the
 * run fails, loudly, rather than run its steps with another shell. A job's are (job.mjs).
 * @param {unknown} raw the workflow's tokens, as written
 * @param {string} name
 */
export function refuseWorkflowDefaults(raw, name) {
  if (mustMapping(raw).find('defaults') !== undefined)
    throw new Error(
      `${name}: the workflow runner does not model a workflow's defaults: (a job's, it does)`,
    )
}
