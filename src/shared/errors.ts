// The action's expected failures: their messages are what the workflow author reads.
import { asSentence } from './text.js'

/**
 * An expected failure (bad input, a platform that refused, a network that failed).
 * Its message is exactly what the workflow author reads, so it must say what went
 * wrong and what to do, and must never hold a secret. Anything else thrown is a bug.
 */
export class ActionError extends Error {
  override name = 'ActionError'
}

/** A bad input, found before any request is sent. The message starts with the input's name. */
export class InputError extends ActionError {
  override name = 'InputError'

  constructor(
    readonly input: string,
    problem: string,
  ) {
    super(`Input '${input}' ${problem}`)
  }
}

/**
 * A file of the runner's that could not be written: GITHUB_OUTPUT (outputs), GITHUB_ENV
 * (envName), GITHUB_STATE (what the post step needs). Named, so that the message says
 * which: a full disk (ENOSPC) or a file gone missing.
 */
export class RunnerFileError extends ActionError {
  override name = 'RunnerFileError'

  constructor(file: string, cause: unknown) {
    super(`could not write ${file}: ${asSentence(messageOf(cause))}`)
  }
}

/** For failures that may come from missing or wrong credentials. */
export const FORK_HINT = 'Secrets are not passed to workflows triggered from forks.'

/**
 * What an error says: its message, or the thrown value as text. Read as a field, not by
 * class: an error from another realm (a test's fs) is not an instance of this Error.
 */
export function messageOf(error: unknown): string {
  const { message } = (error ?? {}) as { message?: unknown }
  return typeof message === 'string' ? message : String(error)
}
