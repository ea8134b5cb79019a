// The main step: read the inputs, run the operation, report the result, fail with one clean message.
import { readInputs } from './inputs/read.js'
import { handOnFailed } from './operations/create.js'
import { perform, type Outcome } from './operations/index.js'
import { ProjectGuard } from './platform/project-guard.js'
import { PostState } from './post/state.js'
import { report } from './report/report.js'
import { stepFailure } from './report/wording.js'
import { connect, type Runner } from './runner/start.js'
import { systemClock } from './shared/time.js'
import { ActionError, InputError, messageOf } from './shared/errors.js'
import { Secrets, type SecretMasker } from './shared/secrets.js'

/**
 * The main step on `runner` (the GitHub runner, or a terminal's: the command line). Every
 * failure ends here, as one message without a stack trace or a secret; it is returned too.
 * `handOn`, the command line's, puts the result where a terminal wants it after the report.
 */
export async function run(
  runner: Runner,
  clock = systemClock,
  handOn?: (outcome: Outcome) => void,
): Promise<{ failed?: true; error?: unknown }> {
  // Masked by the runner the moment each one is known.
  const secrets = new Secrets(runner.setSecret)
  let operation: string | undefined
  try {
    const inputs = readInputs((name) => runner.getInput(name), secrets, runner.inputNames())
    const { task, expectedProjectId } = inputs
    operation = task.operation
    for (const warning of inputs.warnings) runner.warning(warning)

    const { client, deadline, close } = connect(runner, inputs.connection, secrets, clock)
    try {
      const api = expectedProjectId ? new ProjectGuard(client, expectedProjectId) : client
      const postState = new PostState(runner)
      const context = { clock, log: runner, deadline, record: postState.create }
      const outcome = await perform(api, task, context)
      try {
        await report(outcome, { summary: inputs.summary, postState }, runner)
        handOn?.(outcome)
      } catch (error) {
        // A new token that could not be handed on is revoked at once: nobody has its value.
        if (outcome.operation !== 'create') throw error
        throw await handOnFailed(api, outcome.result, error)
      }
      // Written out in full first: a cleanup that revoked some tokens lists them, then fails.
      const problem = stepFailure(outcome)
      if (problem !== undefined) throw new ActionError(problem)
    } finally {
      close()
    }
  } catch (error) {
    runner.setFailed(failureMessage(error, operation, secrets, runner))
    // `failed` too: what was thrown may be anything, undefined among them.
    return { failed: true, error }
  }
  return {}
}

/**
 * The one line a failed step shows. Only a bug (not an ActionError) gets its stack, in
 * debug. It cannot throw: whatever went wrong, and however, the step fails with a message.
 */
export function failureMessage(
  error: unknown,
  operation: string | undefined,
  secrets: SecretMasker,
  runner: Runner,
): string {
  const prefix = operation ? `${operation} failed` : 'The action failed'
  try {
    if (error instanceof InputError) return secrets.scrub(error.message)
    if (error instanceof ActionError) return secrets.scrub(`${prefix}: ${error.message}`)
    if (error instanceof Error && error.stack) runner.debug(secrets.scrub(error.stack))
    return secrets.scrub(`${prefix} unexpectedly: ${messageOf(error)}`)
  } catch {
    // Not even the error could be put into words (or scrubbed): say so, and nothing of it.
    return `${prefix} unexpectedly, with an error that could not be shown.`
  }
}
