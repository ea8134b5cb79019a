// The one place that writes a result to the runner: log lines, outputs, env, post-step state, summary.
import type { CleanupTask, CreateTask } from '../inputs/read.js'
import type { CleanupResult } from '../operations/cleanup.js'
import type { CreateResult } from '../operations/create.js'
import type { Outcome } from '../operations/index.js'
import { ActionError, messageOf } from '../shared/errors.js'
import type { PostState } from '../post/state.js'
import {
  createdTime,
  nameAndId,
  publicJson,
  tokenLabel,
  type TokenRecord,
} from '../shared/records.js'
import type { Runner } from '../runner/github-runner.js'
import { cleanupSummary, createSummary, listSummary, revokeSummary } from './summary.js'
import { asSentence, countTokens, formatAge, oneLine } from '../shared/text.js'
import { newTokenFilePath, writeTokenFile, writeTokensFile } from '../shared/token-files.js'
import {
  ageClockNote,
  allRevoked,
  revokeOnExitNote,
  cleanupOutcome,
  KEPT_NAMELESS,
  keptByKeep,
  revokedElsewhereNote,
} from './wording.js'

export interface ReportOptions {
  summary: boolean
  /** Where the token file's path is saved for the post step, which deletes the file. */
  postState: Pick<PostState, 'tokenFile'>
}

/** The runner's limit for one output (1 MiB): a larger one breaks the expressions that read it. */
export const MAX_OUTPUT_BYTES = 1_048_576
/** The largest value the action puts into the environment of later steps (envName). */
const MAX_ENV_VALUE_BYTES = 32 * 1024

/**
 * The one place that writes a result to the runner: log lines, outputs, the
 * environment, state for the post step and the job summary. Token values were
 * masked when they arrived.
 */
export async function report(
  outcome: Outcome,
  options: ReportOptions,
  runner: Runner,
): Promise<void> {
  let summary: string
  switch (outcome.operation) {
    case 'create': {
      const { task, result } = outcome
      reportCreate(result, task, options.postState, runner)
      summary = createSummary(result, task)
      break
    }
    case 'list': {
      const { task, result } = outcome
      const { tokens, total } = result
      runner.info(`${tokens.length} of ${countTokens(total)} match.`)
      listOutputs(runner, tokens)
      summary = listSummary(result, task)
      break
    }
    case 'revoke': {
      const { result } = outcome
      const { token, alreadyRevoked } = result
      if (alreadyRevoked) {
        const when = token.revokedAt ? ` at ${oneLine(token.revokedAt)}` : ''
        runner.notice(`The ${tokenLabel(token)} was already revoked${when}; nothing to do.`)
      } else {
        runner.info(`Revoked ${tokenLabel(token)}.`)
      }
      recordOutputs(runner, token)
      runner.setOutput('revokedAt', token.revokedAt ?? '')
      runner.setOutput('revokedBy', token.revokedBy ?? '')
      summary = revokeSummary(result)
      break
    }
    case 'cleanup': {
      const { task, result } = outcome
      reportCleanup(result, task, runner)
      summary = cleanupSummary(result, task)
      break
    }
  }
  if (!options.summary) return
  try {
    await runner.writeSummary(summary)
  } catch (error) {
    // The operation is done and its outputs are set: a summary is not worth failing for.
    runner.warning(`Could not write the job summary: ${messageOf(error)}`)
  }
}

function reportCreate(
  result: CreateResult,
  task: CreateTask,
  postState: ReportOptions['postState'],
  runner: Runner,
): void {
  const { token, reused } = result
  const { envName } = task
  checkHandOver(token.tokenValue ?? '', envName)
  runner.info(
    reused
      ? `Reused the ${tokenLabel(token)}, created ${oneLine(token.createdAt ?? 'at an unknown time')}.`
      : `Created ${tokenLabel(token)}.`,
  )
  const exit = revokeOnExitNote(task.revokeOnExit, reused)
  if (exit !== undefined) runner.info(exit)
  if (reused && task.revokeOnExit !== 'never')
    runner.info('revokeOnExit does not apply: the token was reused, not created by this step.')
  recordOutputs(runner, token)
  runner.setOutput('tokenValue', token.tokenValue ?? '')
  runner.setOutput('reused', String(reused))
  runner.setOutput('tokenFile', task.writeTokenFile ? tokenFile(runner, postState, token) : '')
  if (envName) {
    runner.exportVariable(envName, token.tokenValue ?? '')
    runner.info(
      `The token value is in the environment variable ${envName} for later steps (masked).`,
    )
  }
}

/**
 * Whether the value can be handed on at all: the runner takes at most 1 MiB in one output,
 * and a later step cannot start with a variable much larger than 32 KiB in its environment
 * (Windows' limit; on Linux, 128 KiB per variable), nor can the post step, which would then
 * not revoke anything. Checked before anything is written.
 */
function checkHandOver(value: string, envName: string | undefined): void {
  const bytes = Buffer.byteLength(value)
  if (bytes > MAX_OUTPUT_BYTES) {
    throw new ActionError(
      `the token value is ${bytes} bytes, over the runner's limit of 1 MiB for one output (tokenValue).`,
    )
  }
  if (envName !== undefined && bytes > MAX_ENV_VALUE_BYTES) {
    throw new ActionError(
      `the token value is ${bytes} bytes, too large for an environment variable (envName ${envName}: at most ${MAX_ENV_VALUE_BYTES} bytes, or later steps and the post step cannot start). Use writeTokenFile: true and read the value from the file.`,
    )
  }
}

function reportCleanup(result: CleanupResult, task: CleanupTask, runner: Runner): void {
  const { revoked, kept, notRevoked, now } = result
  const clock = ageClockNote(result)
  if (clock !== undefined) {
    if (result.ages.by === 'runner') runner.info(clock)
    else runner.warning(clock)
  }
  const age = (token: TokenRecord) => {
    const created = createdTime(token)
    return created === undefined ? '' : `, ${formatAge(now - created)} old`
  }
  for (const { token, why } of kept) {
    if (why === 'keep') {
      runner.info(`Kept ${tokenLabel(token)}${age(token)}: ${keptByKeep(task.keep)}.`)
    } else if (why === 'unreadable name') {
      runner.warning(
        `Token ${nameAndId(token)} is not revoked: ${KEPT_NAMELESS}. Revoke it by its id (operation: revoke) if nothing uses it.`,
      )
    } else {
      runner.warning(
        `Token ${nameAndId(token)} has a createdAt that cannot be read (${JSON.stringify(token.createdAt ?? null)}): its age is unknown, so it is not revoked.`,
      )
    }
  }
  const verb = task.dryRun ? 'Would revoke' : 'Revoked'
  for (const token of revoked) runner.info(`${verb} ${tokenLabel(token)}${age(token)}.`)
  for (const token of result.revokedElsewhere)
    runner.info(`The ${tokenLabel(token)} ${revokedElsewhereNote(token)}.`)
  // Each one named, with why: the step's failure message names only the first few.
  for (const { token, reason } of notRevoked)
    runner.warning(`Could not revoke ${tokenLabel(token)}: ${reason}`)
  runner.info(`${cleanupOutcome(result, task)} Kept ${kept.length}.`)
  listOutputs(runner, allRevoked(result))
}

/** The outputs of one record, shared by create and revoke. Never the value. */
function recordOutputs(runner: Runner, token: TokenRecord): void {
  runner.setOutput('tokenId', token.id)
  runner.setOutput('name', token.name ?? '')
  runner.setOutput('mediatorId', token.mediatorId ?? '')
  runner.setOutput('projectId', token.projectId ?? '')
  runner.setOutput('state', token.state)
  runner.setOutput('createdAt', token.createdAt ?? '')
  runner.setOutput('token', publicJson(token))
}

/**
 * Writes the token value to a new 0600 file under the temp dir (writeTokenFile) and
 * returns its path. The path is saved for the post step before the file is made, so
 * that the post step deletes it whatever happens from here on. The path is not
 * secret; the content is, and is never logged.
 */
function tokenFile(
  runner: Runner,
  postState: ReportOptions['postState'],
  token: TokenRecord,
): string {
  const path = newTokenFilePath(runner.tempDir())
  postState.tokenFile(path)
  try {
    writeTokenFile(path, token.tokenValue ?? '')
  } catch (error) {
    throw new ActionError(
      `could not write the token value to ${path} (writeTokenFile): ${asSentence(messageOf(error))}`,
    )
  }
  return path
}

/**
 * tokens, count and tokensFile. The JSON is made once, as one string, for both the
 * file and the output: a list can hold thousands of records. When it is over the
 * runner's limit for one output, tokens is the empty string (`[]` would read as "no
 * tokens") and the file is the only full copy.
 */
function listOutputs(runner: Runner, tokens: readonly TokenRecord[]): void {
  const json = publicJson(tokens)
  const bytes = Buffer.byteLength(json)
  runner.setOutput('count', String(tokens.length))
  // Set before the file is written, so that a cleanup's outputs stand if writing fails.
  if (bytes <= MAX_OUTPUT_BYTES) runner.setOutput('tokens', json)
  let path: string
  try {
    path = writeTokensFile(runner.tempDir(), json)
  } catch (error) {
    throw new ActionError(
      `could not write the records to a file in ${runner.tempDir()} (tokensFile): ${asSentence(messageOf(error))}`,
    )
  }
  runner.setOutput('tokensFile', path)
  if (bytes > MAX_OUTPUT_BYTES) {
    runner.warning(
      `The tokens output would be ${bytes} bytes, over the runner's 1 MiB limit for one output: it is left empty; read tokensFile (${path}) instead.`,
    )
    runner.setOutput('tokens', '')
  }
}
