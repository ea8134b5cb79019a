// The job summary: escaped Markdown for each operation, always under the runner's size limit.
import type { CleanupResult } from './operations/cleanup.js'
import type { CreateResult } from './operations/create.js'
import type { ListResult } from './operations/list.js'
import type { RevokeResult } from './operations/revoke.js'
import { createdTime, NO_NAME, type TokenRecord } from './records.js'
import { readTimestamp } from './timestamp.js'
import { countTokens, formatAge, lazyRegExp, oneLine, truncate } from './text.js'
import { ageClockNote, cleanupOutcome, KEPT_NAMELESS, keptByKeep } from './wording.js'

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

// Summaries never hold a token value: rows are built from these fields only.
type Shown = Pick<
  TokenRecord,
  'id' | 'name' | 'state' | 'createdAt' | 'createdBy' | 'createdByEmail' | 'revokedAt'
>

/**
 * A Markdown summary that stays under the runner's limit in bytes whatever it is given:
 * everything is counted as it is added. A table that would pass the budget stops early
 * and says how many rows it left out; a heading or paragraph that would pass the limit
 * is cut where no tag, escape or character is split.
 */
export class Summary {
  private text = ''
  private bytes = 0

  constructor(heading: string) {
    this.block(`### ${heading}`)
  }

  paragraph(markdown: string): this {
    this.block(markdown)
    return this
  }

  /**
   * A table under a heading, a row per item; `whereAll` says where the complete list is.
   * Rows are made only while they fit: a list of thousands is not escaped and dated
   * whole for the few hundred rows a summary can show.
   */
  table<T>(
    heading: string,
    columns: string[],
    items: readonly T[],
    row: (item: T) => string[],
    whereAll: string,
  ): this {
    if (items.length === 0) return this
    const head = `#### ${heading}\n\n| ${columns.join(' | ')} |\n|${' --- |'.repeat(columns.length)}\n`
    let shown = 0
    if (this.add(head))
      for (const item of items) {
        if (!this.add(`| ${row(item).join(' | ')} |\n`, RESERVE_BYTES)) break
        shown++
      }
    const omitted = items.length - shown
    if (omitted > 0)
      this.add(
        `\n${omitted} more not shown: a step summary must stay under 128 KiB; ${whereAll}.\n`,
      )
    this.add('\n')
    return this
  }

  toString(): string {
    return this.text
  }

  /** Prose and the blank line after it, cut to what is left when it does not fit whole. */
  private block(markdown: string): void {
    if (this.add(`${markdown}\n\n`)) return
    // Cut to leave the reserve, so that a table after it can still say what it left out.
    const cut = cutMarkdown(markdown, SUMMARY_LIMIT_BYTES - 1 - RESERVE_BYTES - this.bytes - 2)
    if (cut !== undefined) this.add(`${cut}\n\n`)
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

// What must stay whole when Markdown is cut: an HTML tag, an escape, one character.
const PIECE = /<(\/?)([a-z]+)>|&#?[a-z0-9]+;|[\s\S]/giu

/**
 * `markdown` if it fits in `maxBytes`, else its start with `...` and the closing tags of
 * the tags it leaves open; undefined when not even that fits.
 */
export function cutMarkdown(markdown: string, maxBytes: number): string | undefined {
  if (Buffer.byteLength(markdown) <= maxBytes) return markdown
  const closers = (open: readonly string[]) =>
    open
      .map((tag) => `</${tag}>`)
      .reverse()
      .join('')
  let open: readonly string[] = []
  let kept = ''
  let bytes = 0
  for (const [piece, slash, tag] of markdown.matchAll(PIECE)) {
    const next = tag === undefined ? open : slash ? open.slice(0, -1) : [...open, tag]
    const size = Buffer.byteLength(piece)
    if (bytes + size + Buffer.byteLength(`...${closers(next)}`) > maxBytes) break
    kept += piece
    bytes += size
    open = next
  }
  const cut = `${kept}...${closers(open)}`
  return Buffer.byteLength(cut) <= maxBytes ? cut : undefined
}

export function createSummary(result: CreateResult): string {
  const { token, envName, reused, revokeOnExit } = result
  const where = envName
    ? `the step output <code>tokenValue</code> and the environment variable <code>${field(envName)}</code>`
    : 'the step output <code>tokenValue</code>'
  const mediator = token.mediatorId ? ` for mediator <code>${field(token.mediatorId)}</code>` : ''
  const what = reused
    ? `Reused ${describeToken(token)}${mediator}, created ${date(token.createdAt)}: no new token was created.`
    : `Created ${describeToken(token)}${mediator}.`
  const exit = revokeOnExit ? ' It will be revoked at the end of the job (revokeOnExit).' : ''
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

export function listSummary(result: ListResult): string {
  const { tokens, total, task } = result
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

export function cleanupSummary(result: CleanupResult): string {
  const { task, revoked, kept, notRevoked, left, now } = result
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
      [`Selected ${selection.join(', ')}.`, cleanupOutcome(result), ageClockNote(result)]
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
      'Left active: totalTimeout ran out',
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

const markdownSpecial = lazyRegExp(() => /[&<>"|`\\*[\]~$]|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu)
// The same characters, `_` anywhere: without any, there is nothing to escape.
const MAYBE_SPECIAL = /[&<>"|`\\*[\]~$_]/

/**
 * Escapes text from the platform for Markdown and HTML, so that a name holding `|`,
 * backticks, `*`, `~`, `$` (math), brackets or tags cannot break the table, inject markup
 * or show as something else. `_` only where it could start or end emphasis: between two
 * letters or digits it cannot, and names like `GW_TOKEN` stay as they are.
 */
export function escapeMarkdown(value: string): string {
  const line = oneLine(value)
  if (!MAYBE_SPECIAL.test(line)) return line
  return line.replace(markdownSpecial(), (c) => `&#${c.charCodeAt(0)};`)
}
