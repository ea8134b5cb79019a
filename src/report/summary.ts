// The job summary: escaped Markdown for each operation, always under the runner's size limit.
import type { CleanupTask, CreateTask, ListTask } from '../inputs/read.js'
import type { CleanupResult } from '../operations/cleanup.js'
import type { CreateResult } from '../operations/create.js'
import type { ListResult, RevokeResult } from '../operations/index.js'
import { createdTime, NO_NAME, readTimestamp, type TokenRecord } from '../shared/records.js'
import { escapeMarkdown, Summary } from './markdown.js'
import { countTokens, formatAge, oneLine, truncate } from '../shared/text.js'
import {
  ageClockNote,
  cleanupOutcome,
  KEPT_NAMELESS,
  keptByKeep,
  leftBecause,
  revokeOnExitNote,
} from './wording.js'

// Any one field from outside (a name, an id, a reason) is cut to this many characters
// before it is escaped, so that no escape is cut in half; at most 1,200 bytes once
// escaped (`&#124;` for each `|`), so that a table shows many rows whatever the names.
const FIELD_CHARACTERS = 200
// Where a list or cleanup's records all are: the tokens output is left empty past 1 MiB.
const ALL_IN_TOKENS_FILE = 'the file named by the <code>tokensFile</code> output has all of them'

// Summaries never hold a token value: rows are built from these fields only.
type Shown = Pick<
  TokenRecord,
  'id' | 'name' | 'state' | 'createdAt' | 'createdBy' | 'createdByEmail' | 'revokedAt'
>

export function createSummary(result: CreateResult, task: CreateTask): string {
  const { token, reused } = result
  const { envName } = task
  const where = envName
    ? `the step output <code>tokenValue</code> and the environment variable <code>${field(envName)}</code>`
    : 'the step output <code>tokenValue</code>'
  const mediator = token.mediatorId ? ` for mediator <code>${field(token.mediatorId)}</code>` : ''
  const what = reused
    ? `Reused ${describeToken(token)}${mediator}, created ${date(token.createdAt)}: no new token was created.`
    : `Created ${describeToken(token)}${mediator}.`
  const note = revokeOnExitNote(task.revokeOnExit, reused)
  const exit = note === undefined ? '' : ` ${note}`
  return new Summary(reused ? 'Gateway token reused' : 'Gateway token created')
    .paragraph(`${what} Its value is in ${where}, masked in the log.${exit}`)
    .toString()
}

export function revokeSummary(result: RevokeResult): string {
  const { token, alreadyRevoked } = result
  const when = token.revokedAt ? ` at ${date(token.revokedAt)}` : ''
  const what = alreadyRevoked
    ? `The ${describeToken(token)} was already revoked${when}; nothing changed.`
    : `Revoked ${describeToken(token)}${when}.`
  return new Summary('Gateway token revoked').paragraph(what).toString()
}

export function listSummary(result: ListResult, task: ListTask): string {
  const { tokens, total } = result
  const filters = [
    task.name === undefined ? undefined : `name <code>${field(task.name)}</code>`,
    task.state === 'all' ? undefined : `state <code>${task.state}</code>`,
  ].filter((filter) => filter !== undefined)
  const matching = filters.length > 0 ? ` match ${filters.join(' and ')}` : ''
  return new Summary('Gateway tokens')
    .paragraph(`${tokens.length} of ${countTokens(total)}${matching}.`)
    .table(
      'Tokens',
      ['Name', 'Id', 'State', 'Created', 'Created by', 'Revoked'],
      tokens,
      (t) => [
        name(t),
        code(t.id),
        field(t.state),
        date(t.createdAt),
        creator(t),
        date(t.revokedAt),
      ],
      ALL_IN_TOKENS_FILE,
    )
    .toString()
}

export function cleanupSummary(result: CleanupResult, task: CleanupTask): string {
  const { revoked, kept, notRevoked, left, now } = result
  const selection = [
    task.name === undefined
      ? 'active tokens of any name'
      : `active tokens named <code>${field(task.name)}</code>`,
    task.olderThan === undefined ? undefined : `older than ${field(task.olderThan.text)}`,
    task.keep > 0 ? `keeping the ${task.keep} newest of each name` : undefined,
  ].filter((part) => part !== undefined)
  const age = (token: Shown) => {
    const created = createdTime(token)
    return created === undefined ? 'unknown' : formatAge(now - created)
  }
  return new Summary(task.dryRun ? 'Gateway token cleanup (dry run)' : 'Gateway token cleanup')
    .paragraph(
      [`Selected ${selection.join(', ')}.`, cleanupOutcome(result, task), ageClockNote(result)]
        .filter((sentence) => sentence !== undefined)
        .join(' '),
    )
    .table(
      'Not revoked',
      ['Name', 'Id', 'Why'],
      notRevoked,
      ({ token, reason }) => [name(token), code(token.id), field(reason)],
      'each has a warning in the log',
    )
    .table(
      `Left active: ${leftBecause(result)}`,
      ['Name', 'Id', 'Age'],
      left,
      (t) => [name(t), code(t.id), age(t)],
      'run the cleanup again to revoke them',
    )
    .table(
      task.dryRun ? 'Would revoke' : 'Revoked',
      ['Name', 'Id', 'Age', 'Created by'],
      revoked,
      (t) => [name(t), code(t.id), age(t), creator(t)],
      ALL_IN_TOKENS_FILE,
    )
    .table(
      'Revoked by someone else meanwhile',
      ['Name', 'Id', 'Revoked', 'By'],
      result.revokedElsewhere,
      (t) => [name(t), code(t.id), date(t.revokedAt), field(t.revokedBy ?? '')],
      ALL_IN_TOKENS_FILE,
    )
    .table(
      'Kept',
      ['Name', 'Id', 'Age', 'Why'],
      kept,
      ({ token, why }) => [
        name(token),
        code(token.id),
        age(token),
        field(
          why === 'keep'
            ? keptByKeep(task.keep)
            : why === 'unreadable name'
              ? KEPT_NAMELESS
              : 'its createdAt cannot be read',
        ),
      ],
      'the log says how many were kept',
    )
    .toString()
}

function describeToken(token: Shown): string {
  return `gateway token <strong>${name(token)}</strong> (${code(token.id)})`
}

/** A record's name for a table, or what stands for a name that was not text. */
function name(token: Shown): string {
  return token.name === undefined ? `<em>${NO_NAME}</em>` : field(token.name)
}

function creator(token: Shown): string {
  return field(token.createdByEmail ?? token.createdBy ?? '')
}

function code(value: string): string {
  return `<code>${field(value)}</code>`
}

/** `2026-11-22 18:34 UTC` from an ISO timestamp; anything unreadable is shown as a field. */
function date(iso: string | undefined): string {
  if (iso === undefined) return ''
  const time = readTimestamp(iso)
  if (time === undefined) return field(iso)
  return new Date(time).toISOString().replace('T', ' ').slice(0, 16) + ' UTC'
}

/** A field from outside on one line, cut to FIELD_CHARACTERS, escaped. */
function field(value: string): string {
  return escapeMarkdown(truncate(oneLine(value), FIELD_CHARACTERS))
}
