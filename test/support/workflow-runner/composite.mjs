// A local composite action (`uses: ./path`): its inputs, its steps in a frame of their own, its outputs, and its post step.
// @ts-check
import { scopeOf } from './action-step.mjs'
import { evaluateMapping, evaluateToken } from './evaluate.mjs'
import { runSteps } from './step-list.mjs'
import { stepRun } from './steps.mjs'

/** @typedef {import('./types.mjs').StepRun} StepRun */
/** @typedef {import('./types.mjs').Job} Job */
/** @typedef {import('./types.mjs').Frame} Frame */
/** @typedef {import('./uses.mjs').Composite} Composite */

/**
 * A composite action's main stage, as the runner runs it (CompositeActionHandler.RunAsync,
 * docs/RUNNER.md): its inputs are the step's `with:` over their defaults; its steps run in a
 * frame of their own, which sees `inputs`, its own `steps`, `github.action_path` (and
 * `GITHUB_ACTION_PATH`), not `secrets`, `vars` or `needs`; success() and failure() there read
 * the action's status so far (`github.action_status`), while `job.status` stays the job's
 * until the action's step ends. Its post step is registered as it starts, in the frame it
 * runs in: at the end of the job it runs the post steps of the actions in it that ran (this
 * action's), last first, with the action's inputs and env evaluated again then, and the
 * `steps` context of its main stage. Its outputs are evaluated after its steps, whatever
 * they did; it fails when one of them failed.
 * @param {Composite} target
 * @param {{ name: string, rawStep: import('./types.mjs').RawStep, scope: Record<string, unknown> & { env: Record<string, string> }, env: Record<string, string>, stop: { timeoutMinutes: number } }} step
 *   `env`: what the frame's env and the step's own `env:` make, without the job's
 * @param {Frame} frame
 * @param {Job} job
 * @returns {Promise<StepRun>}
 */
export async function runComposite(target, { name, rawStep, scope, env, stop }, frame, job) {
  if (stop.timeoutMinutes > 0)
    throw new Error(
      `step ${name}: the workflow runner does not model timeout-minutes on a composite action`,
    )
  /** @type {'success' | 'failure' | 'cancelled'} */
  let status = 'success'
  const inputs = inputsOf(target, rawStep, scope)
  /** @type {Frame} */
  const nested = {
    contexts: {
      github: { .../** @type {object} */ (scope.github), action_path: target.dir },
      inputs,
      runner: scope.runner,
      strategy: scope.strategy,
      matrix: scope.matrix,
    },
    steps: {},
    env,
    processEnv: { ...frame.processEnv, GITHUB_ACTION_PATH: target.dir },
    posts: [],
    parent: name,
    // Its `run:` steps name their shell: the action's schema requires it.
    shell: undefined,
    status: () => status,
    ended: (conclusion) => {
      // A cancel is the job's: its status is cancelled at once, in the action too.
      if (conclusion === 'cancelled') status = job.status = 'cancelled'
      else if (conclusion === 'failure' && status === 'success') status = 'failure'
    },
  }
  frame.posts.unshift({
    kind: 'composite',
    name,
    posts: nested.posts,
    refresh: () => {
      const now = scopeOf(frame, job)
      const own = evaluateMapping(rawStep?.find('env'), now)
      nested.env = { ...frame.env, ...own }
      nested.contexts.inputs = inputsOf(target, rawStep, { ...now, env: { ...now.env, ...own } })
    },
  })
  await runSteps({ steps: target.steps, raw: target.rawSteps }, nested, job)
  /** @type {Record<string, string>} */
  const outputs = {}
  for (const output of target.action.outputs ?? []) {
    if (output.value !== undefined)
      outputs[output.id] = String(evaluateToken(output.value, scopeOf(nested, job)))
  }
  return {
    ...stepRun(status === 'success', outputs, '', '', inputs),
    kind: 'composite',
    outcome: status,
  }
}

/**
 * A composite action's `inputs` context: what `with:` gives (each name as written there),
 * and each other input it declares with its default, evaluated with github, job, runner,
 * strategy and matrix (input-default-context), or empty. As for any action, `required` is
 * not enforced by the runner.
 * @param {Composite} target
 * @param {import('./types.mjs').RawStep} rawStep
 * @param {Record<string, unknown>} scope
 */
function inputsOf({ action }, rawStep, scope) {
  const given = evaluateMapping(rawStep?.find('with'), scope)
  const named = new Set(Object.keys(given).map((key) => key.toLowerCase()))
  const { github, job, runner, strategy, matrix } = scope
  /** @type {Record<string, string>} */
  const inputs = { ...given }
  for (const input of action.inputs ?? []) {
    if (named.has(input.id.toLowerCase())) continue
    const defaults = { github, job, runner, strategy, matrix }
    inputs[input.id] =
      input.default === undefined ? '' : String(evaluateToken(input.default, defaults))
  }
  return inputs
}
