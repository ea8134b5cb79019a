// Strict ISO 8601 timestamps from the platform: date, time and zone, or nothing.

// 2026-05-26T19:16:45Z, 2026-05-26T19:16:45.123Z, 2026-05-26T21:16:45+02:00. Nothing
// looser: Date.parse reads "0", "12" or "unknown 2019" as dates, and a token whose age is
// misread must never be revoked for it.
const ISO_8601 =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:(Z)|([+-])(\d{2}):?(\d{2}))$/

/** Milliseconds since the epoch, or undefined unless `text` is a strict ISO 8601 timestamp. */
export function readTimestamp(text: string): number | undefined {
  const match = ISO_8601.exec(text)
  if (match === null) return undefined
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ]
  const fraction = Number(`0.${match[7] ?? '0'}`)
  const sign = match[9] === '-' ? -1 : 1
  const offsetMinutes = match[8] ? 0 : sign * (Number(match[10]) * 60 + Number(match[11]))
  if (hour > 23 || minute > 59 || second > 59 || Math.abs(offsetMinutes) > 18 * 60) return undefined
  const utc = Date.UTC(year, month - 1, day, hour, minute, second)
  // Date.UTC rolls 31 February over into March: a date that does not exist is refused.
  const date = new Date(utc)
  if (
    date.getUTCFullYear() !== year ||
    date.getUTCMonth() !== month - 1 ||
    date.getUTCDate() !== day
  )
    return undefined
  return utc + Math.floor(fraction * 1000) - offsetMinutes * 60_000
}
