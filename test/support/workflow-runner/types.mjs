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
 * @property {Record<string, string>} [files] files of the checkout besides examples/, by path
 *   (a local action's action.yml): written into each job's directory before its steps
 */

/**
 * @typedef {object} StepRun
 * @property {string} job
 * @property {string} name
 * @property {'main' | 'post'} stage
 * @property {'action' | 'run' | 'composite' | 'other'} kind
 * @property {string} [parent] the composite action's step a step of it ran in, by name
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

/** @typedef {import('@actions/workflow-parser/templates/tokens/mapping-token').MappingToken | undefined} RawStep */
/** @typedef {'success' | 'failure' | 'cancelled'} JobStatus */

/**
 * @typedef {object} Job what the steps of one job share, those of its composite actions too
 * @property {string} label the job in the run's records
 * @property {string} dir the job's directory: its RUNNER_TEMP, HOME and workspace (the checkout)
 * @property {Record<string, string>} env the job's env: the workflow's, its own, then the
 *   GITHUB_ENV of each step, for the steps after it
 * @property {string[]} path GITHUB_PATH of earlier steps, latest first
 * @property {JobStatus} status the job's status so far (`job.status`)
 * @property {string[]} secrets the job's secrets, which the runner masks in every step's log
 * @property {{ dir: string, tools: ReturnType<typeof import('../fake-tools.mjs').installFakeTools>, options: WorkflowOptions, run: WorkflowRun }} shared
 */

/**
 * @typedef {object} Frame where a list of steps runs: the job, or a composite action in it
 * @property {Record<string, unknown>} contexts what its expressions see besides steps, job and
 *   env: the job's contexts; a composite action's inputs, github (action_path), runner, ...
 * @property {Record<string, { outputs: Record<string, string>, outcome: string, conclusion: string }>} steps
 *   its `steps` context, filled as its steps end
 * @property {Record<string, string>} env the env its steps get over the job's: a composite step's own
 * @property {Record<string, string>} processEnv what its steps' processes get besides (GITHUB_ACTION_PATH)
 * @property {Post[]} posts where the post steps of its actions are registered, last first
 * @property {string} [parent] the composite action's step, by name
 * @property {string | undefined} shell the shell of a `run:` step that names none (defaults.run.shell)
 * @property {() => string} status what success(), failure() and cancelled() read
 * @property {(conclusion: string) => void} ended told each step's conclusion (cancelled for a cancel)
 */

/**
 * @typedef {{ kind: 'action', name: string, parent?: string, state: Record<string, string>, timeoutMinutes: number, evaluate: () => { inputs: Record<string, string>, env: Record<string, string> } }
 *   | { kind: 'composite', name: string, posts: Post[], refresh: () => void }} Post
 *   a post step: this action's, its `with:` and env evaluated when it runs; or a composite
 *   action's, which runs the post steps of the actions in it, its inputs evaluated again first
 */
