// The workflow runner's types: the options of a run, and what a run and each step give back.
// @ts-check

/**
 * @typedef {object} WorkflowOptions
 * @property {Record<string, string>} [secrets]
 * @property {Record<string, string>} [vars]
 * @property {string} [event] github.event_name (workflow_dispatch by default)
 * @property {Record<string, unknown>} [payload] github.event
 * @property {Record<string, unknown>} [inputs] workflow_dispatch inputs, over their defaults
 *   (in a run of another event, the inputs context holds only these)
 * @property {string} [fail] FAKE_TOOLS_FAIL: the tool calls that fail (`helm upgrade`), each
 *   entry the tool and words its arguments hold, in order (`helm upgrade production-eu`)
 * @property {number[]} [closedPullRequests] what `gh pr list --state closed` names
 * @property {Record<string, { secrets?: Record<string, string>, vars?: Record<string, string> }>} [environments]
 *   the repository's environments: a job with `environment:` sees their secrets and vars
 *   over the repository's
 * @property {{ step: string, afterMs?: number }} [cancel] cancel the run while the step of
 *   this name runs, `afterMs` after it started: its process gets the runner's signals, the
 *   job's status becomes cancelled
 * @property {number} [minuteMs] how long a minute of `timeout-minutes` lasts (60,000)
 */

/**
 * @typedef {object} StepRun
 * @property {string} job
 * @property {string} name
 * @property {'main' | 'post'} stage
 * @property {'action' | 'run' | 'other'} kind
 * @property {'success' | 'failure' | 'skipped' | 'cancelled'} outcome
 * @property {Record<string, string>} outputs
 * @property {string} log what the step printed, as the job log shows it (secrets masked)
 * @property {string} raw what the step printed, unmasked
 * @property {Record<string, string>} inputs the step's `with:`, evaluated
 * @property {Record<string, string>} [env] a run step's GITHUB_ENV, for the steps after it
 * @property {string} [summary] an action step's GITHUB_STEP_SUMMARY
 */

/**
 * @typedef {object} WorkflowRun
 * @property {Record<string, 'success' | 'failure' | 'skipped' | 'cancelled'>} jobs each job's
 *   result (the jobs of a called workflow as `<caller> / <id>`, the caller's result theirs
 *   together; each combination of a matrix as `<id> (<values>)`, the job's own theirs together)
 * @property {string[]} warnings what the runner warned of: job outputs it skipped
 * @property {StepRun[]} steps every step of every job, in the order they ran, posts included
 * @property {import('../fake-tools.mjs').ToolCall[]} tools every call of a fake tool
 * @property {string[]} masked every value registered as a secret during the run
 * @property {Record<string, Record<string, string>>} leftovers by job, the files left in
 *   its directory after its post steps (path relative to it: content)
 */
