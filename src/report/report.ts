// The one place that writes a result to the runner: log lines, outputs, env, post-step state, summary.
import { auditOutcome } from '../operations/audit.js'
import type { Done, Outcome } from '../operations/index.js'
import { ActionError, messageOf, toFile } from '../shared/errors.js'
import type { PostState } from '../post/state.js'
import { nameAndId, publicJson, tokenLabel, type TokenRecord } from '../shared/records.js'
import type { Runner } from '../runner/start.js'
import * as summary from './summary.js'
import { countTokens, formatBytes, oneLine } from '../shared/text.js'
import { newTokenFilePath, writeTokenFile, writeTokensFile } from '../shared/token-files.js'
import type { AgeClock } from '../shared/time.js'
import * as wording from './wording.js'

/**
 * Whether to write the job summary, and where the token file's path is saved for the post
 * step, which deletes the file.
 */
export type ReportOptions = { summary: boolean; postState: Pick<PostState, 'tokenFile'> }

/** The runner's limit for one output: a larger one breaks the expressions that read it. */
export const MAX_OUTPUT_BYTES = 1_048_576
/** The largest value the action puts into the environment of later steps (envName). */
const MAX_ENV_VALUE_BYTES = 32 * 1024

/**
 * The one place that writes a result to the runner: log lines, outputs, the
 * environment, state for the post step and the job summary. Token values were
 * masked when they arrived.
 */
export async function report(outcome: Outcome, options: ReportOptions, runner: Runner) {
  const markdown = writeOut(outcome, options, runner)
  if (!options.summary) return
  // The operation is done and its outputs are set: a summary is not worth failing for.
  await runner.writeSummary(markdown).catch((error: unknown) => {
    runner.warning(`Could not write the job summary: ${messageOf(error)}`)
  })
}

/** Writes an outcome's log lines and outputs; returns its summary. */
function writeOut(outcome: Outcome, options: ReportOptions, runner: Runner) {
  switch (outcome.operation) {
    case 'create':
      writeCreate(outcome, options, runner)
      return summary.createSummary(outcome.result, outcome.task)
    case 'list':
      runner.info(`${outcome.result.tokens.length} of ${countTokens(outcome.result.total)} match.`)
      listOutputs(runner, outcome.result.tokens)
      return summary.listSummary(outcome.result, outcome.task)
    case 'revoke': {
      const { token, alreadyRevoked } = outcome.result
      const when = token.revokedAt ? ` at ${oneLine(token.revokedAt)}` : ''
      if (alreadyRevoked)
        runner.notice(`The ${tokenLabel(token)} was already revoked${when}; nothing to do.`)
      else runner.info(`Revoked ${tokenLabel(token)}.`)
      recordOutputs(runner, token)
      for (const field of ['revokedAt', 'revokedBy'] as const)
        runner.setOutput(field, token[field] ?? '')
      return summary.revokeSummary(outcome.result)
    }
    case 'cleanup':
      writeCleanup(outcome, runner)
      return summary.cleanupSummary(outcome.result, outcome.task)
    case 'audit':
      writeAudit(outcome, runner)
      return summary.auditSummary(outcome.result, outcome.task)
  }
}

function writeCreate({ task, result }: Done<'create'>, options: ReportOptions, runner: Runner) {
  const { token, reused } = result
  const value = token.tokenValue ?? ''
  // Whether the value can be handed on at all, before anything is written: the runner takes
  // at most 1 MiB in one output, and a later step cannot start with a variable much larger
  // than 32 KiB in its environment (Windows' limit; on Linux, 128 KiB per variable), nor
  // can the post step, which would then not revoke anything.
  const bytes = Buffer.byteLength(value)
  if (bytes > MAX_OUTPUT_BYTES)
    throw new ActionError(
      `the token value is ${bytes} bytes, over the runner's limit of ${formatBytes(MAX_OUTPUT_BYTES)} for one output (tokenValue).`,
    )
  if (task.envName !== undefined && bytes > MAX_ENV_VALUE_BYTES)
    throw new ActionError(
      `the token value is ${bytes} bytes, too large for an environment variable (envName ${task.envName}: at most ${MAX_ENV_VALUE_BYTES} bytes, or later steps and the post step cannot start). Use writeTokenFile: true and read the value from the file.`,
    )
  runner.info(
    reused
      ? `Reused the ${tokenLabel(token)}, created ${oneLine(token.createdAt ?? 'at an unknown time')}.`
      : `Created ${tokenLabel(token)}.`,
  )
  const exit = wording.revokeOnExitNote(task.revokeOnExit, reused)
  if (exit !== undefined) runner.info(exit)
  if (reused && task.revokeOnExit !== 'never')
    runner.info('revokeOnExit does not apply: the token was reused, not created by this step.')
  recordOutputs(runner, token)
  runner.setOutput('tokenValue', value)
  runner.setOutput('reused', String(reused))
  runner.setOutput('tokenFile', task.writeTokenFile ? tokenFile(value, options, runner) : '')
  if (task.envName) {
    runner.exportVariable(task.envName, value)
    runner.info(
      `The token value is in the environment variable ${task.envName} for later steps (masked).`,
    )
  }
}

/** Says whose clock measured the ages: the runner's, for want of a Date header; or far apart. */
function writeAgeClock(result: { ages: AgeClock }, runner: Runner) {
  const clock = wording.ageClockNote(result)
  if (clock !== undefined) runner[result.ages.by === 'runner' ? 'info' : 'warning'](clock)
}

/** `, 45d 3h old`, or nothing when the token's age cannot be told. */
function old(token: TokenRecord, now: number): string {
  const age = wording.ageOf(token, now)
  return age === undefined ? '' : `, ${age} old`
}

function writeCleanup({ task, result }: Done<'cleanup'>, runner: Runner) {
  writeAgeClock(result, runner)
  for (const kept of result.kept)
    if (kept.why === 'keep' || kept.why === 'keepIds')
      runner.info(
        `Kept ${tokenLabel(kept.token)}${old(kept.token, result.now)}: ${wording.whyKept(kept, task.keep)}.`,
      )
    else if (kept.why === 'unreadable name')
      runner.warning(
        `Token ${nameAndId(kept.token)} is not revoked: ${wording.KEPT_NAMELESS}. Revoke it by its id (operation: revoke) if nothing uses it.`,
      )
    else runner.warning(`${wording.ageUnknown(kept.token)}, so it is not revoked.`)
  const verb = task.dryRun ? 'Would revoke' : 'Revoked'
  for (const token of result.revoked)
    runner.info(`${verb} ${tokenLabel(token)}${old(token, result.now)}.`)
  for (const token of result.revokedElsewhere)
    runner.info(`The ${tokenLabel(token)} ${wording.revokedElsewhereNote(token)}.`)
  // Each one named, with why: the step's failure message names only the first few.
  for (const { token, reason } of result.notRevoked)
    runner.warning(`Could not revoke ${tokenLabel(token)}: ${reason}`)
  for (const token of result.unknown)
    runner.warning(`The ${tokenLabel(token)} ${wording.unknownBecause(result)}.`)
  runner.info(`${wording.cleanupOutcome(result, task)} Kept ${result.kept.length}.`)
  listOutputs(runner, wording.allRevoked(result))
}

function writeAudit({ task, result }: Done<'audit'>, runner: Runner) {
  writeAgeClock(result, runner)
  for (const token of result.findings)
    runner.info(`Older than ${task.olderThan.text}: ${tokenLabel(token)}${old(token, result.now)}.`)
  for (const token of result.undated)
    runner.warning(
      `${wording.ageUnknown(token)}, so this audit cannot tell whether it is older than ${task.olderThan.text}. Check it on the platform.`,
    )
  runner.info(auditOutcome(result, task))
  listOutputs(runner, result.findings)
}

/** The outputs of one record, shared by create and revoke. Never the value. */
function recordOutputs(runner: Runner, token: TokenRecord) {
  runner.setOutput('tokenId', token.id)
  for (const field of ['name', 'mediatorId', 'projectId', 'state', 'createdAt'] as const)
    runner.setOutput(field, token[field] ?? '')
  runner.setOutput('token', publicJson(token))
}

/**
 * Writes the token value to a new 0600 file under the temp dir (writeTokenFile) and
 * returns its path. The path is saved for the post step before the file is made, so
 * that the post step deletes it whatever happens from here on. The path is not
 * secret; the content is, and is never logged.
 */
function tokenFile(value: string, { postState }: ReportOptions, runner: Runner) {
  const path = newTokenFilePath(runner.tempDir())
  postState.tokenFile(path)
  return toFile(`the token value to ${path} (writeTokenFile)`, () => writeTokenFile(path, value))
}

/**
 * tokens, count and tokensFile. The JSON is made once, as one string, for both the
 * file and the output: a list can hold thousands of records. When it is over the
 * runner's limit for one output, tokens is the empty string (`[]` would read as "no
 * tokens") and the file is the only full copy.
 */
function listOutputs(runner: Runner, tokens: readonly TokenRecord[]) {
  const json = publicJson(tokens)
  const bytes = Buffer.byteLength(json)
  runner.setOutput('count', String(tokens.length))
  // Set before the file is written, so that a cleanup's outputs stand if writing fails.
  runner.setOutput('tokens', bytes <= MAX_OUTPUT_BYTES ? json : '')
  const dir = runner.tempDir()
  const path = toFile(`the records to a file in ${dir} (tokensFile)`, () =>
    writeTokensFile(dir, json),
  )
  runner.setOutput('tokensFile', path)
  if (bytes > MAX_OUTPUT_BYTES)
    runner.warning(
      `The tokens output would be ${bytes} bytes, over the runner's ${formatBytes(MAX_OUTPUT_BYTES)} limit for one output: it is left empty; read tokensFile (${path}) instead.`,
    )
}
