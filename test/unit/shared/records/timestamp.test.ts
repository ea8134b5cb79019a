import { describe, expect, it } from '@jest/globals'
import { readTimestamp } from '../../../../src/shared/records.js'

describe('readTimestamp', () => {
  it.each([
    ['2026-05-26T19:16:45Z', Date.UTC(2026, 4, 26, 19, 16, 45)],
    ['2026-05-26T19:16:45.123Z', Date.UTC(2026, 4, 26, 19, 16, 45, 123)],
    ['2026-05-26T19:16:45.123456789Z', Date.UTC(2026, 4, 26, 19, 16, 45, 123)],
    ['2026-05-26T21:16:45+02:00', Date.UTC(2026, 4, 26, 19, 16, 45)],
    ['2026-05-26T14:16:45-0500', Date.UTC(2026, 4, 26, 19, 16, 45)],
    ['2024-02-29T00:00:00Z', Date.UTC(2024, 1, 29)],
    ['2026-12-31T23:59:59Z', Date.UTC(2026, 11, 31, 23, 59, 59)], // the last second of a day
    ['2026-05-26T19:16:45.5+00:00', Date.UTC(2026, 4, 26, 19, 16, 45, 500)],
    ['2026-05-26T19:16:45.123456Z', Date.UTC(2026, 4, 26, 19, 16, 45, 123)], // finer digits dropped
    ['2026-05-26T19:16:45.05Z', Date.UTC(2026, 4, 26, 19, 16, 45, 50)],
    // Half-hour zones: the minutes take the sign of the hours.
    ['2026-05-26T19:16:45+05:30', Date.UTC(2026, 4, 26, 13, 46, 45)],
    ['2026-05-26T19:16:45-05:30', Date.UTC(2026, 4, 27, 0, 46, 45)],
    ['2026-05-26T19:16:45+05:59', Date.UTC(2026, 4, 26, 13, 17, 45)],
    // ±18:00, the widest offset ISO 8601 and JavaScript allow.
    ['2026-05-27T13:16:45+18:00', Date.UTC(2026, 4, 26, 19, 16, 45)],
    ['2026-05-26T01:16:45-18:00', Date.UTC(2026, 4, 26, 19, 16, 45)],
    ['2026-05-26T00:00:00Z', Date.UTC(2026, 4, 26)], // midnight is 00:00, not 24:00
    ['0100-01-01T00:00:00Z', Date.UTC(100, 0, 1)],
  ])('reads %s', (text, time) => {
    expect(readTimestamp(text)).toBe(time)
  })

  // What Date.parse reads as a date, and a cleanup then revoked as thousands of days old.
  it.each([
    '0',
    '12',
    'n/a 1',
    'unknown 2019',
    '2026',
    '2026-05-26',
    '2026-05-26T19:16',
    '2026-05-26T19:16:45',
    '2026-05-26 19:16:45Z',
    'Tue, 26 May 2026 19:16:45 GMT',
    '2026-02-30T00:00:00Z',
    '2025-02-29T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-05-26T24:00:00Z',
    '2026-05-26T19:60:00Z',
    '2026-05-26T19:16:60Z',
    '2026-05-26T19:16:45.Z',
    '2026-05-26T19:16:45+25:00',
    '2026-05-26T19:16:45+18:01',
    '2026-05-26T19:16:45-18:01',
    // A zone's minutes stop at 59: +05:99 is not a 6 h 39 min offset.
    '2026-05-26T19:16:45+05:60',
    '2026-05-26T19:16:45+0599',
    '2026-04-31T00:00:00Z',
    '2026-05-00T00:00:00Z',
    '2026-00-10T00:00:00Z',
    // Years 0-99: Date.UTC would read them as 1900-1999, and no platform made a token then.
    '0099-01-01T00:00:00Z',
    '0000-01-01T00:00:00Z',
    ' 2026-05-26T19:16:45Z',
    '2026-05-26T19:16:45Z ',
    '+002026-05-26T19:16:45Z',
    '',
  ])('refuses %j', (text) => {
    expect(readTimestamp(text)).toBeUndefined()
  })
})
