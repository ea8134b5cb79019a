// The job summary: escaped Markdown for each operation, built under the runner's size limit.
import type { AuditTask, CleanupTask, CreateTask, ListTask } from '../inputs/read.js'
import type { CleanupResult } from '../operations/cleanup.js'
import type { CreateResult } from '../operations/create.js'
import { auditOutcome, type AuditResult } from '../operations/audit.js'
import type { ListResult, RevokeResult } from '../operations/index.js'
import { NO_NAME, readTimestamp, type ListedProject, type TokenRecord } from '../shared/records.js'
import { countTokens, formatBytes, oneLine, truncate } from '../shared/text.js'
import { cutMarkdown, escapeMarkdown } from './markdown.js'
import * as wording from './wording.js'

/**
 * The action's own bound on a step summary. The runner documents 1 MiB, and may drop a
 * summary close to it without a word (docs/PLATFORM-API.md section 8).
 */
export const SUMMARY_LIMIT_BYTES = 128 * 1024
// Table rows stop this far short of the limit, leaving room for the headings and notes
// that follow them (a few hundred bytes each, three tables at most).
const RESERVE_BYTES = 4 * 1024
// Any one field from outside (a name, an id, a reason) is cut to this many characters
// before it is escaped, so that no escape is cut in half; at most 1,200 bytes once
// escaped (`&#124;` for each `|`), so that a table shows many rows whatever the names.
const FIELD_CHARACTERS = 200
// Where a list or cleanup's records all are: the tokens output is left empty past 1 MiB.
const ALL_IN_TOKENS_FILE = 'the file named by the <code>tokensFile</code> output has all of them'

/**
 * A row of a table: a token, and why it is where it is (a cleanup's tokens not revoked or
 * kept). Summaries never hold a token value: no cell reads one.
 */
type Row = Omit<TokenRecord, 'tokenValue'> & { why?: string }

/** Each column a table can have, and its cell for a row; ages are measured at `now`. */
const CELLS = {
  // A name that is not text is shown as what stands for one, in italics.
  Name: (row: Row) => (row.name === undefined ? `<em>${NO_NAME}</em>` : field(row.name)),
  Id: (row: Row) => code(row.id),
  State: (row: Row) => field(row.state),
  Created: (row: Row) => date(row.createdAt),
  'Created by': (row: Row) => field(row.createdByEmail ?? row.createdBy ?? ''),
  Revoked: (row: Row) => date(row.revokedAt),
  By: (row: Row) => field(row.revokedBy ?? ''),
  Age: (row: Row, now: number) => wording.ageOf(row, now) ?? 'unknown',
  Why: (row: Row) => field(row.why ?? ''),
} satisfies Record<string, (row: Row, now: number) => string>

export function createSummary({ token, reused }: CreateResult, task: CreateTask): string {
  const env = task.envName ? ` and the environment variable ${code(task.envName)}` : ''
  const mediator = token.mediatorId ? ` for mediator ${code(token.mediatorId)}` : ''
  const what = reused
    ? `Reused ${describeToken(token)}${mediator}, created ${date(token.createdAt)}: no new token was created.`
    : `Created ${describeToken(token)}${mediator}.`
  const value = `Its value is in the step output <code>tokenValue</code>${env}, masked in the log.`
  return new Summary(reused ? 'Gateway token reused' : 'Gateway token created')
    .paragraph(what, value, wording.revokeOnExitNote(task.revokeOnExit, reused))
    .toString()
}

export function revokeSummary({ token, alreadyRevoked }: RevokeResult): string {
  const when = token.revokedAt ? ` at ${date(token.revokedAt)}` : ''
  const what = alreadyRevoked
    ? `The ${describeToken(token)} was already revoked${when}; nothing changed.`
    : `Revoked ${describeToken(token)}${when}.`
  return new Summary('Gateway token revoked').paragraph(what).toString()
}

export function listSummary(result: ListResult, task: ListTask): string {
  const filters = [
    task.name === undefined ? undefined : `name ${names(task.name)}`,
    task.state === 'all' ? undefined : `state <code>${task.state}</code>`,
  ].filter((filter) => filter !== undefined)
  const matching = filters.length > 0 ? ` match ${filters.join(' and ')}` : ''
  return new Summary(`Gateway tokens${inProject(result.project)}`)
    .paragraph(`${result.tokens.length} of ${countTokens(result.total)}${matching}.`)
    .table('Tokens', result.tokens, ['State', 'Created', 'Created by', 'Revoked'])
    .toString()
}

export function cleanupSummary(result: CleanupResult, task: CleanupTask): string {
  const selection = [
    `active tokens ${named(task.name)}`,
    task.olderThan === undefined ? undefined : `older than ${field(task.olderThan.text)}`,
    task.keep > 0 ? `keeping the ${task.keep} newest of each name` : undefined,
    task.keepIds.length > 0 ? `never the ${keptIds(task.keepIds.length)}` : undefined,
  ]
  const selected = `Selected ${selection.filter((part) => part !== undefined).join(', ')}.`
  const kept = result.kept.map((kept) => ({ ...kept.token, why: wording.whyKept(kept, task.keep) }))
  const notRevoked = result.notRevoked.map(({ token, reason }) => ({ ...token, why: reason }))
  const unknown = result.unknown.map((token) => ({ ...token, why: wording.unknownBecause(result) }))
  const left = `Left active: ${wording.leftBecause(result)}`
  const heading = `Gateway token cleanup${task.dryRun ? ' (dry run)' : ''}`
  return new Summary(`${heading}${inProject(result.project)}`, result.now)
    .paragraph(selected, wording.cleanupOutcome(result, task), wording.ageClockNote(result))
    .table('Not revoked', notRevoked, ['Why'], 'each has a warning in the log')
    .table(left, result.left, ['Age'], 'run the cleanup again to revoke them')
    .table('Revoked or not: unknown', unknown, ['Why'], 'each has a warning in the log')
    .table(task.dryRun ? 'Would revoke' : 'Revoked', result.revoked, ['Age', 'Created by'])
    .table('Revoked by someone else meanwhile', result.revokedElsewhere, ['Revoked', 'By'])
    .table('Kept', kept, ['Age', 'Why'], 'the log says how many were kept')
    .toString()
}

/**
 * An audit report: the limit, the tokens older than it (a row each: name, id, age, created
 * by), and those whose age cannot be told. It revokes nothing, and never says it would.
 */
export function auditSummary(result: AuditResult, task: AuditTask): string {
  const limit = `Active tokens ${named(task.name)}, older than ${field(task.olderThan.text)}.`
  const undated = result.undated.map((token) => ({ ...token, why: wording.UNDATED }))
  return new Summary(`Gateway token audit${inProject(result.project)}`, result.now)
    .paragraph(limit, auditOutcome(result, task), wording.ageClockNote(result))
    .table(`Older than ${field(task.olderThan.text)}`, result.findings, ['Age', 'Created by'])
    .table('Age unknown', undated, ['Created', 'Why'], 'each has a warning in the log')
    .toString()
}

/**
 * For the heading of a list, cleanup or audit: the project its records belong to, so that the
 * summaries of a matrix over several projects tell which is which; said of several projects
 * too (credentials that reach more than one); nothing when the records do not tell.
 */
function inProject(project: ListedProject): string {
  if (project === undefined) return ''
  return project === 'several' ? ': several projects' : `: project ${code(project.id)}`
}

/** `1 token id in keepIds`, `3 token ids in keepIds`: what a cleanup was told never to revoke. */
const keptIds = (count: number) => `${count === 1 ? 'token id' : `${count} token ids`} in keepIds`

/** `of any name`, or `named` and the name filters. */
const named = (filters: readonly string[] | undefined): string =>
  filters === undefined ? 'of any name' : `named ${names(filters)}`

/** Name filters, each as code. */
const names = (filters: readonly string[]): string => filters.map(code).join(', ')

const describeToken = (token: Row): string =>
  `gateway token <strong>${CELLS.Name(token)}</strong> (${code(token.id)})`

const code = (value: string): string => `<code>${field(value)}</code>`

/** `2026-11-22 18:34 UTC` from an ISO timestamp; anything unreadable is shown as a field. */
function date(iso: string | undefined): string {
  if (iso === undefined) return ''
  const time = readTimestamp(iso)
  if (time === undefined) return field(iso)
  return new Date(time).toISOString().replace('T', ' ').slice(0, 16) + ' UTC'
}

/** A field from outside on one line, cut to FIELD_CHARACTERS, escaped. */
const field = (value: string): string => escapeMarkdown(truncate(oneLine(value), FIELD_CHARACTERS))

type Column = keyof typeof CELLS

/**
 * A Markdown summary that stays under the runner's limit in bytes whatever it is given:
 * everything is counted as it is added. A table that would pass the budget stops early
 * and says how many rows it left out; a heading or paragraph that would pass the limit
 * is cut where no tag, escape or character is split.
 */
export class Summary {
  private text = ''
  private bytes = 0
  /** Dates the ages in its tables. */
  private readonly now: number

  constructor(heading: string, now = 0) {
    this.now = now
    this.paragraph(`### ${heading}`)
  }

  /**
   * Prose (the sentences given, undefined ones left out) and the blank line after it, cut to
   * what is left when it does not fit whole.
   */
  paragraph(...sentences: (string | undefined)[]): this {
    const markdown = sentences.filter((sentence) => sentence !== undefined).join(' ')
    if (this.add(`${markdown}\n\n`)) return this
    // Cut to leave the reserve, so that a table after it can still say what it left out.
    const cut = cutMarkdown(markdown, SUMMARY_LIMIT_BYTES - 1 - RESERVE_BYTES - this.bytes - 2)
    if (cut !== undefined) this.add(`${cut}\n\n`)
    return this
  }

  /**
   * A table under a heading, a row per token: its name and id, then `columns`; `whereAll`
   * says where the complete list is. Rows are made only while they fit: a list of thousands
   * is not escaped and dated whole for the few hundred rows a summary can show.
   */
  table(heading: string, rows: readonly Row[], columns: Column[], whereAll = ALL_IN_TOKENS_FILE) {
    if (rows.length === 0) return this
    const all: Column[] = ['Name', 'Id', ...columns]
    const line = (row: Row) =>
      `| ${all.map((column) => CELLS[column](row, this.now)).join(' | ')} |\n`
    let shown = 0
    if (this.add(`#### ${heading}\n\n| ${all.join(' | ')} |\n|${' --- |'.repeat(all.length)}\n`))
      for (const row of rows) {
        if (!this.add(line(row), RESERVE_BYTES)) break
        shown++
      }
    const omitted = rows.length - shown
    if (omitted > 0)
      this.add(
        `\n${omitted} more not shown: a step summary must stay under ${formatBytes(SUMMARY_LIMIT_BYTES)}; ${whereAll}.\n`,
      )
    this.add('\n')
    return this
  }

  toString(): string {
    return this.text
  }

  /** Adds text if it fits with `reserve` bytes to spare; says whether it did. */
  private add(text: string, reserve = 0): boolean {
    const bytes = Buffer.byteLength(text)
    if (this.bytes + bytes + reserve >= SUMMARY_LIMIT_BYTES) return false
    this.text += text
    this.bytes += bytes
    return true
  }
}
