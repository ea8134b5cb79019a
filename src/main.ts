// The main step: read the inputs, run the operation, report the result, fail with one clean message.
import { stopOnCancel } from './runner/cancel.js'
import { systemClock } from './shared/clock.js'
import { Deadline } from './shared/deadline.js'
import { ActionError, InputError, messageOf } from './shared/errors.js'
import { githubRunner } from './runner/github-runner.js'
import { readInputs } from './inputs/read.js'
import { revokeUnhanded } from './operations/create.js'
import { perform } from './operations/index.js'
import { PlatformClient } from './platform/client.js'
import type { TokenApi } from './platform/token-api.js'
import { saveCreateSent, saveLostAnswer, type CreateSent } from './post/state.js'
import { ProjectGuard } from './platform/project-guard.js'
import { report } from './report/report.js'
import type { Runner } from './runner/runner.js'
import { Secrets, type SecretMasker } from './shared/secrets.js'
import { stepFailure } from './report/wording.js'

/**
 * Every failure ends here, as one message without a stack trace or a secret. The
 * runner defaults to the real one for `npm run local-action`, which calls `run()`.
 */
export async function run(runner: Runner = githubRunner): Promise<void> {
  const secrets = new Secrets((value) => {
    runner.setSecret(value)
  })
  let operation: string | undefined
  try {
    const inputs = readInputs((name) => runner.getInput(name), secrets, runner.inputNames())
    operation = inputs.task.operation
    for (const warning of inputs.warnings) runner.warning(warning)

    const { task, expectedProjectId } = inputs
    // The step's budget starts now: reading the inputs took no time worth counting.
    const deadline = new Deadline(systemClock, inputs.connection.totalTimeoutMs)
    // From here on a cancel ends the step with a report of what it did.
    const stopListening = stopOnCancel(runner, deadline, systemClock)
    const client = new PlatformClient({ ...inputs.connection, secrets, log: runner, deadline })
    try {
      const noted =
        task.operation === 'create' && task.revokeOnExit !== 'never'
          ? notingCreates(client, runner, task.revokeOnExit)
          : client
      const api = expectedProjectId ? new ProjectGuard(noted, expectedProjectId) : noted
      const result = await perform(api, task, { clock: systemClock, log: runner, deadline })
      const writeTokenFile = task.operation === 'create' && task.writeTokenFile
      try {
        await report(result, { summary: inputs.summary, writeTokenFile }, runner)
      } catch (error) {
        // A new token that could not be handed on is revoked at once: nobody has its value.
        if (result.operation !== 'create') throw error
        throw await revokeUnhanded(api, result, error)
      }
      // Written out in full first: a cleanup that revoked some tokens lists them, then fails.
      const problem = stepFailure(result)
      if (problem !== undefined) throw new ActionError(problem)
    } finally {
      stopListening()
      client.close()
    }
  } catch (error) {
    runner.setFailed(failureMessage(error, operation, secrets, runner))
  }
}

/**
 * The client, with each create noted for the post step just before it is sent
 * (revokeOnExit). If its answer is lost and the step cannot tell which token it made,
 * or the step is killed, the post step still looks for the token. Only a create is
 * noted: a reused token was never this step's, and no create is sent for it.
 */
function notingCreates(client: TokenApi, runner: Runner, when: CreateSent['when']): TokenApi {
  return {
    createToken: (name) => {
      saveCreateSent(runner, { name, sentAt: systemClock.now(), when })
      return client.createToken(name, {
        onLostAnswer: () => {
          saveLostAnswer(runner)
        },
      })
    },
    listTokens: () => client.listTokens(),
    revokeToken: (tokenId, options) => client.revokeToken(tokenId, options),
    platformTime: (runnerTime) => client.platformTime(runnerTime),
  }
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
