// The job summary: escaped Markdown for each operation, always under the runner's size limit.
import type { CleanupTask, CreateTask, ListTask } from '../inputs/read.js'
import type { CleanupResult } from '../operations/cleanup.js'
import type { CreateResult } from '../operations/create.js'
import type { ListResult, RevokeResult } from '../operations/index.js'
import { createdTime, NO_NAME, readTimestamp, type TokenRecord } from '../shared/records.js'
import { escapeMarkdown, Summary } from './markdown.js'
import { countTokens, formatAge, oneLine, truncate } from '../shared/text.js'
import * as wording from './wording.js'

// Any one field from outside (a name, an id, a reason) is cut to this many characters
// before it is escaped, so that no escape is cut in half; at most 1,200 bytes once
// escaped (`&#124;` for each `|`), so that a table shows many rows whatever the names.
const FIELD_CHARACTERS = 200
// Where a list or cleanup's records all are: the tokens output is left empty past 1 MiB.
const ALL_IN_TOKENS_FILE = 'the file named by the <code>tokensFile</code> output has all of them'

/**
 * A row of a table: a token, and why it is where it is (a cleanup's tokens not revoked or
 * kept). Summaries never hold a token value: cells are made from these fields only.
 */
type Row = Pick<
  TokenRecord,
  'id' | 'name' | 'state' | 'createdAt' | 'createdBy' | 'createdByEmail' | 'revokedAt' | 'revokedBy'
> & { why?: string }

/** Each column a table can have, and its cell for a row; ages are measured at `now`. */
const CELLS = {
  Name: (row: Row) => name(row),
  Id: (row: Row) => code(row.id),
  State: (row: Row) => field(row.state),
  Created: (row: Row) => date(row.createdAt),
  'Created by': (row: Row) => field(row.createdByEmail ?? row.createdBy ?? ''),
  Revoked: (row: Row) => date(row.revokedAt),
  By: (row: Row) => field(row.revokedBy ?? ''),
  Age: (row: Row, now: number) => {
    const created = createdTime(row)
    return created === undefined ? 'unknown' : formatAge(now - created)
  },
  Why: (row: Row) => field(row.why ?? ''),
} satisfies Record<string, (row: Row, now: number) => string>

/** A table's columns: Name and Id, then `more`. */
function columns(now: number, ...more: (keyof typeof CELLS)[]) {
  const cells = (['Name', 'Id', ...more] as const).map((column) => {
    const cell = CELLS[column]
    return [column, (row: Row) => cell(row, now)] as const
  })
  return Object.fromEntries(cells)
}

export function createSummary({ token, reused }: CreateResult, task: CreateTask): string {
  const env = task.envName
    ? ` and the environment variable <code>${field(task.envName)}</code>`
    : ''
  const mediator = token.mediatorId ? ` for mediator <code>${field(token.mediatorId)}</code>` : ''
  const what = reused
    ? `Reused ${describeToken(token)}${mediator}, created ${date(token.createdAt)}: no new token was created.`
    : `Created ${describeToken(token)}${mediator}.`
  const exit = wording.revokeOnExitNote(task.revokeOnExit, reused)
  return new Summary(reused ? 'Gateway token reused' : 'Gateway token created')
    .paragraph(
      `${what} Its value is in the step output <code>tokenValue</code>${env}, masked in the log.${exit === undefined ? '' : ` ${exit}`}`,
    )
    .toString()
}

export function revokeSummary({ token, alreadyRevoked }: RevokeResult): string {
  const when = token.revokedAt ? ` at ${date(token.revokedAt)}` : ''
  const what = alreadyRevoked
    ? `The ${describeToken(token)} was already revoked${when}; nothing changed.`
    : `Revoked ${describeToken(token)}${when}.`
  return new Summary('Gateway token revoked').paragraph(what).toString()
}

export function listSummary({ tokens, total }: ListResult, task: ListTask): string {
  const filters = [
    task.name === undefined ? undefined : `name <code>${field(task.name)}</code>`,
    task.state === 'all' ? undefined : `state <code>${task.state}</code>`,
  ].filter((filter) => filter !== undefined)
  const matching = filters.length > 0 ? ` match ${filters.join(' and ')}` : ''
  const shown = columns(0, 'State', 'Created', 'Created by', 'Revoked')
  return new Summary('Gateway tokens')
    .paragraph(`${tokens.length} of ${countTokens(total)}${matching}.`)
    .table('Tokens', tokens, shown, ALL_IN_TOKENS_FILE)
    .toString()
}

export function cleanupSummary(result: CleanupResult, task: CleanupTask): string {
  const { now } = result
  const { keep } = task
  const selection = [
    task.name === undefined
      ? 'active tokens of any name'
      : `active tokens named <code>${field(task.name)}</code>`,
    task.olderThan === undefined ? undefined : `older than ${field(task.olderThan.text)}`,
    keep > 0 ? `keeping the ${keep} newest of each name` : undefined,
  ]
  const notRevoked = result.notRevoked.map(({ token, reason }) => ({ ...token, why: reason }))
  const kept = result.kept.map(({ token, why }) => ({
    ...token,
    why:
      why === 'keep'
        ? wording.keptByKeep(keep)
        : why === 'unreadable name'
          ? wording.KEPT_NAMELESS
          : 'its createdAt cannot be read',
  }))
  const sentences = [
    `Selected ${selection.filter((part) => part !== undefined).join(', ')}.`,
    wording.cleanupOutcome(result, task),
    wording.ageClockNote(result),
  ]
  return new Summary(task.dryRun ? 'Gateway token cleanup (dry run)' : 'Gateway token cleanup')
    .paragraph(sentences.filter((sentence) => sentence !== undefined).join(' '))
    .table('Not revoked', notRevoked, columns(now, 'Why'), 'each has a warning in the log')
    .table(
      `Left active: ${wording.leftBecause(result)}`,
      result.left,
      columns(now, 'Age'),
      'run the cleanup again to revoke them',
    )
    .table(
      task.dryRun ? 'Would revoke' : 'Revoked',
      result.revoked,
      columns(now, 'Age', 'Created by'),
      ALL_IN_TOKENS_FILE,
    )
    .table(
      'Revoked by someone else meanwhile',
      result.revokedElsewhere,
      columns(now, 'Revoked', 'By'),
      ALL_IN_TOKENS_FILE,
    )
    .table('Kept', kept, columns(now, 'Age', 'Why'), 'the log says how many were kept')
    .toString()
}

function describeToken(token: Row): string {
  return `gateway token <strong>${name(token)}</strong> (${code(token.id)})`
}

/** A record's name for a table, or what stands for a name that was not text. */
function name(token: Row): string {
  return token.name === undefined ? `<em>${NO_NAME}</em>` : field(token.name)
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
