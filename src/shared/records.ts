// Gateway token records: checked copies of what the platform sent, how to name, find and order them, their ids (UUIDs) and dates (strict ISO 8601).
import { oneLine, truncate } from './text.js'

// Only these fields are read, and written to outputs in this order. Unknown fields are
// dropped rather than passed on, so that a secret the platform may add one day cannot
// reach an output.
const PUBLIC_FIELDS = [
  'id',
  'name',
  'state',
  'mediatorId',
  'projectId',
  'createdBy',
  'createdByEmail',
  'createdAt',
  'revokedAt',
  'revokedBy',
] as const

/**
 * A gateway token record as the platform returns it (docs/PLATFORM-API.md section 2.3). Each
 * field is there when the platform sent a string. A name of another type (a number, an array,
 * null) is left out rather than made into text: records whose names were all read as `''`
 * would make one name, and a cleanup would rank them against each other.
 */
export interface TokenRecord extends Partial<Record<(typeof PUBLIC_FIELDS)[number], string>> {
  id: string
  /** `active` or `revoked`; kept as given so that a new state is not mistaken for either. */
  state: string
  /** The secret: only in the create answer and on active records of a list. */
  tokenValue?: string
}

/**
 * Checks that a parsed JSON value is a token record and copies its known fields.
 * Returns a reason instead of a record when it is not one.
 */
export function toRecord(value: unknown): TokenRecord | string {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return 'not an object'
  const fields = value as Record<string, unknown>
  const { id, state, tokenValue } = fields
  if (typeof id !== 'string' || id === '') return 'a record without an id'
  if (typeof state !== 'string' || state === '') return 'a record without a state'
  const record: TokenRecord = { id, state }
  for (const field of PUBLIC_FIELDS)
    if (typeof fields[field] === 'string') record[field] = fields[field]
  // A blank value is no value: handing on `"   "` as a token would only fail later.
  if (typeof tokenValue === 'string' && tokenValue.trim() !== '') record.tokenValue = tokenValue
  return record
}

/**
 * A record, or a list of them, as JSON without `tokenValue`: the public fields only, in
 * a fixed order, and the keys `around` them (a document's, or `tokenValue` where it is
 * asked for). Written straight from the records, with no copies: a list can hold thousands.
 */
export function publicJson(records: unknown, around: readonly string[] = []): string {
  return JSON.stringify(records, [...around, ...PUBLIC_FIELDS])
}

/** `'name' (id)`, for messages: on one line and short, whatever the platform sent. */
export function nameAndId(token: Pick<TokenRecord, 'name' | 'id'>): string {
  return `${token.name === undefined ? NO_NAME : quoteName(token.name)} (${shortId(token)})`
}

/** A token name for a message: quoted, on one line, and short whatever the platform sent. */
export function quoteName(name: string): string {
  // Cut like an id: a name of 140 KB would otherwise make each log line and message as long.
  return `'${truncate(oneLine(name), 200)}'`
}

/**
 * When the token a create made is revoked at the end: `always` (the revokeOnExit input's
 * `true`), `failure` (only when the job, or the command, did not succeed), or `never` (`false`).
 */
export type RevokeOnExit = 'always' | 'failure' | 'never'

/** How a record whose name is not a string is named in messages and the summary. */
export const NO_NAME = '(a name that is not text)'

/** A platform id for a message: on one line, and short whatever the platform sent. */
export function shortId(token: Pick<TokenRecord, 'id'>): string {
  return truncate(oneLine(token.id), 80)
}

/** `gateway token 'name' (id)`, for log lines. */
export function tokenLabel(token: Pick<TokenRecord, 'name' | 'id'>): string {
  return `gateway token ${nameAndId(token)}`
}

/**
 * One record per id (compared without regard to case), the first one listed: a list that
 * holds a record twice must not make a cleanup revoke it twice or count it twice.
 */
export function uniqueById<T extends Pick<TokenRecord, 'id'>>(records: T[]): T[] {
  // A list of thousands is looked through once, and copied only when it holds a duplicate.
  const seen = new Set<string>()
  // New when adding its id makes the set grow.
  const isNew = (record: T): boolean => seen.size < seen.add(caseless(record.id)).size
  if (records.every(isNew)) return records
  seen.clear()
  return records.filter(isNew)
}

/**
 * An id for comparing without regard to case. Most are lower-case UUIDs already: they are
 * kept as they are, with no new string made for each of thousands.
 */
const caseless = (id: string): string => (/[^a-z0-9-]/.test(id) ? id.toLowerCase() : id)

/** Whether two platform ids are the same, compared without regard to case. */
export function sameId(a: string, b: string): boolean {
  return caseless(a) === caseless(b)
}

/**
 * The project of the records a list answered with: its id when they all carry the same one
 * (compared without regard to case; the first record's spelling), `several` when they carry
 * two or more, undefined when they do not tell (none listed, or one without a projectId).
 */
export type ListedProject = { id: string } | 'several' | undefined

export function projectOf(records: readonly TokenRecord[]): ListedProject {
  const id = records[0]?.projectId
  if (id === undefined || records.some(({ projectId }) => projectId === undefined)) return undefined
  return records.every(({ projectId = '' }) => sameId(projectId, id)) ? { id } : 'several'
}

/** The record with this id (ids compared without regard to case), or undefined. */
export function findById(tokens: readonly TokenRecord[], tokenId: string): TokenRecord | undefined {
  return tokens.find((token) => sameId(token.id, tokenId))
}

/**
 * Milliseconds since the epoch, or undefined when `createdAt` is missing or not a strict
 * ISO 8601 timestamp (a token whose age cannot be read is never revoked by age).
 */
export function createdTime(record: Pick<TokenRecord, 'createdAt'>): number | undefined {
  return record.createdAt === undefined ? undefined : readTimestamp(record.createdAt)
}

/**
 * Newest first by `createdAt`. Timestamps have whole seconds, so tokens tie: a tie is
 * ordered by id, so that the result never depends on the order the platform listed
 * them in. Records whose date cannot be read go last, also by id.
 */
export function newestFirst<T extends TokenRecord>(records: readonly T[]): T[] {
  const keyed = records.map((record) => [createdTime(record) ?? -Infinity, record] as const)
  // A tie in time falls through to the ids: 0, or NaN when neither date can be read.
  keyed.sort(([timeA, a], [timeB, b]) => timeB - timeA || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  return keyed.map(([, record]) => record)
}

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export function isUuid(value: string): boolean {
  return UUID.test(value)
}

// 2026-05-26T19:16:45Z, 2026-05-26T19:16:45.123Z, 2026-05-26T21:16:45+02:00. Nothing
// looser: Date.parse reads "0", "12" or "unknown 2019" as dates, and a token whose age is
// misread must never be revoked for it. A zone's minutes run 00-59, its hours to 18.
const ISO_8601 =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:(Z)|([+-])(\d{2}):?([0-5]\d))$/

/** Milliseconds since the epoch, or undefined unless `text` is a strict ISO 8601 timestamp. */
export function readTimestamp(text: string): number | undefined {
  const match = ISO_8601.exec(text)
  if (match === null) return undefined
  const [year = 0, month = 0, day, hour, minute, second] = match.slice(1, 7).map(Number)
  // Milliseconds: the first three digits of the fraction, any finer ones dropped.
  const millis = Number((match[7] ?? '').padEnd(3, '0').slice(0, 3))
  const sign = match[9] === '-' ? -1 : 1
  const offsetMinutes = match[8] ? 0 : sign * (Number(match[10]) * 60 + Number(match[11]))
  if (Math.abs(offsetMinutes) > 18 * 60) return undefined
  const utc = Date.UTC(year, month - 1, day, hour, minute, second)
  // Date.UTC rolls what does not exist over (31 February into March, 24:00 or a 60th
  // minute or second into the next) and reads years 0-99 as 1900-1999: the date and
  // time are refused unless writing them back gives the text again.
  if (new Date(utc).toISOString().slice(0, 19) !== text.slice(0, 19)) return undefined
  return utc + millis - offsetMinutes * 60_000
}
