// This action's steps through the runner emulation (runner.mjs): its main step, and at the end of the job every post step registered, last first.
// @ts-check
import { runAction } from '../runner.mjs'
import { evaluateMapping } from './evaluate.mjs'
import { stepRun } from './steps.mjs'

/** @typedef {import('./types.mjs').StepRun} StepRun */
/** @typedef {import('./types.mjs').Job} Job */
/** @typedef {import('./types.mjs').Frame} Frame */
/** @typedef {import('./types.mjs').Post} Post */

/**
 * This action's main step: its `with:` evaluated in the step's scope (its env included), run
 * by the runner emulation. Its post step is registered in the frame (the job's, or that of
 * the composite action it is in), to run at the end of the job with its `with:` and `env:`
 * evaluated again then, with the contexts as they are then (ActionRunner.RunAsync, at each
 * stage: docs/RUNNER.md).
 * @param {{ name: string, rawStep: import('./types.mjs').RawStep, scope: Record<string, unknown> & { env: Record<string, string> }, stop: { timeoutMinutes: number, minuteMs: number, cancel?: { when: () => boolean } } }} step
 * @param {Frame} frame
 * @param {Job} job
 * @returns {Promise<StepRun & { path?: string[] }>}
 */
export async function runThisAction({ name, rawStep, scope, stop }, frame, job) {
  const inputs = evaluateMapping(rawStep?.find('with'), scope)
  const ran = await runAction({ inputs, env: scope.env, path: job.path, dir: job.dir, ...stop })
  job.shared.run.masked.push(...ran.masked)
  Object.assign(job.env, ran.env)
  frame.posts.unshift({
    kind: 'action',
    name,
    state: ran.state,
    timeoutMinutes: stop.timeoutMinutes,
    ...(frame.parent === undefined ? {} : { parent: frame.parent }),
    evaluate: () => {
      const now = scopeOf(frame, job)
      const env = { ...now.env, ...evaluateMapping(rawStep?.find('env'), now) }
      return { inputs: evaluateMapping(rawStep?.find('with'), { ...now, env }), env }
    },
  })
  const log = ran.stdout + ran.stderr
  const result = stepRun(ran.outcome === 'success', ran.outputs, ran.log, log, inputs)
  if (ran.outcome === 'cancelled') result.outcome = 'cancelled'
  return { ...result, summary: ran.summary, path: ran.path }
}

/**
 * The post steps of a job, last registered first, whatever happened (post-if: always()),
 * each with the job's status as it is then: a post step that fails makes it failure for
 * those after it (StepsRunner.RunAsync). A composite action's post step runs the post steps
 * of the actions in it that ran, last first, with its inputs evaluated again
 * (CompositeActionHandler.RunAsync, stage Post); one that registered none is not run.
 * @param {Post[]} posts
 * @param {Job} job
 * @returns {Promise<boolean>} whether every one succeeded
 */
export async function runPosts(posts, job) {
  const { run, options } = job.shared
  let ok = true
  for (const post of posts) {
    if (post.kind === 'composite') {
      if (post.posts.length === 0) continue
      post.refresh()
      // One step of the job: the job's status changes after it, not between the posts in it.
      const status = job.status
      const passed = await runPosts(post.posts, job)
      job.status = status
      if (!passed && job.status === 'success') job.status = 'failure'
      ok &&= passed
      continue
    }
    const { inputs, env } = post.evaluate()
    const ran = await runAction({
      step: 'post',
      inputs,
      state: post.state,
      env,
      path: job.path,
      dir: job.dir,
      jobStatus: job.status,
      timeoutMinutes: post.timeoutMinutes,
      minuteMs: options.minuteMs ?? 60_000,
    })
    run.masked.push(...ran.masked)
    const result = stepRun(ran.outcome === 'success', {}, ran.log, ran.stdout + ran.stderr, inputs)
    run.steps.push({
      ...result,
      summary: ran.summary,
      job: job.label,
      name: `Post ${post.name}`,
      stage: 'post',
      ...(post.parent === undefined ? {} : { parent: post.parent }),
    })
    if (ran.outcome !== 'success' && job.status === 'success') job.status = 'failure'
    ok &&= ran.outcome === 'success'
  }
  return ok
}

/**
 * What a step's expressions see in a frame now: the frame's contexts, its steps so far, the
 * job's status (in a composite action too: `job.status` is the job's, not the action's), and
 * the env it starts from: the job's (GITHUB_ENV of earlier steps included), then a composite
 * step's own.
 * @param {Frame} frame
 * @param {Job} job
 * @returns {Record<string, unknown> & { env: Record<string, string> }}
 */
export function scopeOf(frame, job) {
  return {
    ...frame.contexts,
    steps: frame.steps,
    job: { status: job.status },
    env: { ...job.env, ...frame.env },
  }
}
