// Strict ISO 8601 timestamps from the platform: date, time and zone, or nothing.

// 2026-05-26T19:16:45Z, 2026-05-26T19:16:45.123Z, 2026-05-26T21:16:45+02:00. Nothing
// looser: Date.parse reads "0", "12" or "unknown 2019" as dates, and a token whose age is
// misread must never be revoked for it. A zone's minutes run 00-59, its hours to 18.
const ISO_8601 =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:(Z)|([+-])(\d{2}):?([0-5]\d))$/

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
