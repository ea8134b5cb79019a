import type { CreateResult } from './operations/create.js'
import type { ListResult } from './operations/list.js'
import type { RevokeResult } from './operations/revoke.js'
import type { TokenRecord } from './records.js'
import { oneLine } from './text.js'

/** The runner refuses a step summary of 128 KiB or more. */
export const SUMMARY_LIMIT_BYTES = 128 * 1024
// Tables stop here, leaving room for the lines around them.
const TABLE_BUDGET_BYTES = SUMMARY_LIMIT_BYTES - 4 * 1024

// Summaries never hold a token value: they are built from these fields only.
type Shown = Pick<
  TokenRecord,
  'id' | 'name' | 'state' | 'createdAt' | 'createdBy' | 'createdByEmail' | 'revokedAt'
>

export function createSummary(result: CreateResult): string {
  const { token, envName } = result
  const where = envName
    ? `the step output <code>tokenValue</code> and the environment variable <code>${text(envName)}</code>`
    : 'the step output <code>tokenValue</code>'
  return (
    `### Gateway token created\n\n` +
    `Created ${describeToken(token)}${token.mediatorId ? ` for mediator <code>${text(token.mediatorId)}</code>` : ''}. ` +
    `Its value is in ${where}, masked in the log.\n`
  )
}

export function revokeSummary(result: RevokeResult): string {
  const { token, alreadyRevoked } = result
  const when = token.revokedAt ? ` at ${date(token.revokedAt)}` : ''
  const what = alreadyRevoked
    ? `The ${describeToken(token)} was already revoked${when}; nothing changed.`
    : `Revoked ${describeToken(token)}${when}.`
  return `### Gateway token revoked\n\n${what}\n`
}

export function listSummary(result: ListResult): string {
  const { tokens, total, task } = result
  const filters = [
    task.name === undefined ? undefined : `name <code>${text(task.name)}</code>`,
    task.state === 'all' ? undefined : `state <code>${task.state}</code>`,
  ].filter((filter) => filter !== undefined)
  const matching = filters.length > 0 ? ` match ${filters.join(' and ')}` : ''
  const heading = `### Gateway tokens\n\n${tokens.length} of ${total} tokens${matching}.\n\n`
  if (tokens.length === 0) return heading
  return heading + tokenTable(tokens, 'the <code>tokens</code> output has all of them')
}

/**
 * A table of tokens, cut short before the summary limit. The last line says how
 * many rows were left out and where the complete list is.
 */
function tokenTable(tokens: readonly Shown[], whereAll: string): string {
  const header =
    '| Name | Id | State | Created | Created by | Revoked |\n| --- | --- | --- | --- | --- | --- |\n'
  let table = header
  let bytes = Buffer.byteLength(header)
  let shown = 0
  for (const token of tokens) {
    const row =
      `| ${text(token.name)} | <code>${text(token.id)}</code> | ${text(token.state)} | ` +
      `${date(token.createdAt)} | ${text(token.createdByEmail ?? token.createdBy ?? '')} | ${date(token.revokedAt)} |\n`
    bytes += Buffer.byteLength(row)
    if (bytes > TABLE_BUDGET_BYTES) break
    table += row
    shown++
  }
  const omitted = tokens.length - shown
  if (omitted > 0) {
    table += `\n${omitted} more not shown: a step summary must stay under 128 KiB; ${whereAll}.\n`
  }
  return table
}

function describeToken(token: Shown): string {
  return `gateway token <strong>${text(token.name)}</strong> (<code>${text(token.id)}</code>)`
}

/** `2026-11-22 18:34 UTC` from an ISO timestamp; anything unreadable is shown escaped as it is. */
function date(iso: string | undefined): string {
  if (iso === undefined) return ''
  const time = Date.parse(iso)
  if (Number.isNaN(time)) return text(iso)
  return new Date(time).toISOString().replace('T', ' ').slice(0, 16) + ' UTC'
}

/**
 * Escapes text from the platform for Markdown and HTML, so that a name holding `|`,
 * backticks, `*` or tags cannot break the table or inject markup.
 */
export function text(value: string): string {
  return oneLine(value).replace(/[&<>"|`\\*[\]~]/g, (c) => `&#${c.charCodeAt(0)};`)
}
