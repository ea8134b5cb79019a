// The steps of a job or of a local composite action in it, in order: `run:` steps, this action, a checkout, composite actions.
// @ts-check
import {
  evaluateCondition,
  evaluateMapping,
  evaluateToken,
  evaluateTree,
  jobStatusFunctions,
} from './evaluate.mjs'
import { runThisAction, scopeOf } from './action-step.mjs'
import { runComposite } from './composite.mjs'
import { runScript, skipped, stepRun } from './steps.mjs'
import { resolveUses } from './uses.mjs'

/** @typedef {import('./types.mjs').StepRun} StepRun */
/** @typedef {import('./types.mjs').Job} Job */
/** @typedef {import('./types.mjs').Frame} Frame */
/** @typedef {import('@actions/workflow-parser/model/workflow-template').Step} Step */
/** @typedef {import('@actions/workflow-parser/templates/tokens/mapping-token').MappingToken} MappingToken */

/**
 * Runs a list of steps in a frame (the job, or a composite action in it): each whose `if:`
 * holds (success() by default, read from the frame's status), with its env, its process
 * stopped by a cancel or `timeout-minutes`; a `continue-on-error` failure concludes as a
 * success. A step it cannot run fails the whole run, loudly.
 * @param {{ steps: Step[], raw: (MappingToken | undefined)[] }} list
 * @param {Frame} frame
 * @param {Job} job
 */
export async function runSteps({ steps, raw }, frame, job) {
  const { options, run } = job.shared
  for (const [index, step] of steps.entries()) {
    const rawStep = raw[index]
    // A composite action's step without an id gets one of the runner's own making.
    const id = step.id || `__${index}`
    const scope = scopeOf(frame, job)
    const name = step.name === undefined ? id : evaluateToken(step.name, scope)
    const functions = jobStatusFunctions(frame.status)
    if (!evaluateCondition(step.if?.expression ?? 'success()', scope, functions)) {
      run.steps.push({ ...skipped(job.label, name), ...parentOf(frame) })
      frame.steps[id] = { outputs: {}, outcome: 'skipped', conclusion: 'skipped' }
      continue
    }
    const own = evaluateMapping(rawStep?.find('env'), scope)
    const env = { ...scope.env, ...own }
    const inScope = { ...scope, env }
    // A composite action's steps have no timeout-minutes of their own (the schema has none).
    const timeoutMinutes = Number(evaluateTree(rawStep?.find('timeout-minutes'), scope) ?? 0)
    const started = Date.now()
    const cancel =
      options.cancel?.step === name
        ? { when: () => Date.now() - started >= (options.cancel?.afterMs ?? 0) }
        : undefined
    const stop = { ...(cancel && { cancel }), timeoutMinutes, minuteMs: options.minuteMs ?? 60_000 }
    /** @type {StepRun & { path?: string[] }} */
    let result
    if ('run' in step) {
      if (rawStep?.find('working-directory') !== undefined)
        throw new Error(`step ${name}: the workflow runner does not model working-directory`)
      const shellToken = rawStep?.find('shell')
      const shell = shellToken === undefined ? frame.shell : evaluateToken(shellToken, inScope)
      const script = { script: String(evaluateToken(step.run, inScope)), shell, name }
      const where = { ...job.shared, jobDir: job.dir, path: job.path, masked: run.masked }
      result = await runScript(
        script,
        { ...env, ...frame.processEnv },
        { ...where, secrets: job.secrets },
        stop,
      )
      Object.assign(job.env, result.env ?? {})
    } else if (!('uses' in step)) {
      throw new Error(`step ${name}: only run: and uses: steps run here`)
    } else {
      const target = resolveUses(step.uses.value, job.dir, name)
      const here = { name, rawStep, scope: inScope, env: { ...frame.env, ...own }, stop }
      if (target.kind === 'this') result = await runThisAction(here, frame, job)
      else if (target.kind === 'composite') result = await runComposite(target, here, frame, job)
      else result = { ...stepRun(true, {}, '', '', {}), kind: 'other' }
    }
    job.path = [...(result.path ?? []), ...job.path]
    run.steps.push({ ...result, job: job.label, name, ...parentOf(frame) })
    const continues = evaluateTree(rawStep?.find('continue-on-error'), inScope) === true
    const conclusion = result.outcome === 'failure' && continues ? 'success' : result.outcome
    frame.steps[id] = { outputs: result.outputs, outcome: result.outcome, conclusion }
    frame.ended(result.outcome === 'cancelled' ? 'cancelled' : conclusion)
  }
}

/** @param {Frame} frame */
function parentOf(frame) {
  return frame.parent === undefined ? {} : { parent: frame.parent }
}
