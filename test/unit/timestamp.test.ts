import { describe, expect, it } from '@jest/globals'
import { readTimestamp } from '../../src/timestamp.js'

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
    ' 2026-05-26T19:16:45Z',
    '2026-05-26T19:16:45Z ',
    '+002026-05-26T19:16:45Z',
    '',
  ])('refuses %j', (text) => {
    expect(readTimestamp(text)).toBeUndefined()
  })
})
