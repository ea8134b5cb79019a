// Each input parser on both sides of its rule: what it refuses, with the exact message, and
// what it accepts. envName and URLs have files of their own (input-parsers-env-name, -url).
import { describe, expect, it } from '@jest/globals'
import {
  readDuration,
  readInteger,
  readNameFilter,
  readProjectId,
  readRequiredName,
  readTokenId,
} from '../../src/input-parsers.js'
import { refusal } from '../fixtures/input-error.js'

describe('readInteger', () => {
  it.each(['0', '7', '10', '007'])('accepts %j', (raw) => {
    expect(readInteger('retries', raw, 0, 10, 'a whole number')).toBe(Number(raw))
  })

  it.each(['', '-1', '11', '3.5', ' 3', '3 ', '+3', '1e1', '0x1', '٣', 'three'])(
    'refuses %j',
    (raw) => {
      expect(refusal(() => readInteger('retries', raw, 0, 10, 'a whole number')).message).toBe(
        `Input 'retries' must be a whole number from 0 to 10; got ${JSON.stringify(raw)}.`,
      )
    },
  )
})

describe('readDuration', () => {
  it.each<[string, number]>([
    ['1m', 60_000],
    ['90m', 90 * 60_000],
    ['12h', 12 * 3_600_000],
    ['30d', 30 * 86_400_000],
    ['2w', 14 * 86_400_000],
  ])('reads %s as %d ms', (raw, ms) => {
    expect(readDuration(raw)).toEqual({ text: raw, ms })
  })

  it.each(['0d', '30', '30s', '1.5h', '1y', '30D', '-1d', ' 30d', '30d ', 'd', '00m'])(
    'refuses %j',
    (raw) => {
      expect(refusal(() => readDuration(raw)).message).toBe(
        `Input 'olderThan' must be a whole number and a unit, m, h, d or w (90m, 12h, 30d, 2w); got ${JSON.stringify(raw)}.`,
      )
    },
  )
})

describe('names and ids', () => {
  const CONTROL = "Input 'name' must not hold control characters (line breaks, tabs); got"

  it.each([
    ['"a\\nb"', 'a\nb'],
    ['"a\\rb"', 'a\rb'],
    ['"a\\tb"', 'a\tb'],
    ['"a\\u0000b"', 'a\u0000b'],
    ['"a\\u007fb"', 'a\u007fb'],
    ['"a\\u0085b"', 'a\u0085b'],
    ['"a\\u009fb"', 'a\u009fb'],
  ])('refuses the name %s', (quoted, name) => {
    expect(refusal(() => readRequiredName(name, 'x')).message).toBe(`${CONTROL} ${quoted}.`)
    expect(refusal(() => readNameFilter(name)).message).toBe(`${CONTROL} ${quoted}.`)
  })

  it.each(['ci-deploy', 'ci deploy', ' padded ', 'déploiement ✓', '日本語', '🚀', 'a\u00a0b'])(
    'accepts the name %j',
    (name) => {
      expect(readRequiredName(name, 'x')).toBe(name)
      expect(readNameFilter(name)).toBe(name)
    },
  )

  it('reads an empty filter as none, and a long bad value cut short in the message', () => {
    expect(readNameFilter('')).toBeUndefined()
    expect(readProjectId('')).toBeUndefined()
    expect(refusal(() => readTokenId('x'.repeat(500))).message).toBe(
      `Input 'tokenId' must be a UUID like 123e4567-e89b-42d3-a456-426614174000; got "${'x'.repeat(77)}...".`,
    )
  })

  const UUID = '123e4567-e89b-42d3-a456-426614174000'
  it.each([UUID, UUID.toUpperCase(), '00000000-0000-0000-0000-000000000000'])(
    'accepts the id %s',
    (id) => {
      expect(readTokenId(id)).toBe(id)
      expect(readProjectId(id)).toBe(id)
    },
  )

  it.each([
    '42',
    '.',
    '..',
    `${UUID}x`,
    `${UUID}/..`,
    `${UUID}\n`,
    `x${UUID}`,
    UUID.slice(1),
    `{${UUID}}`,
    UUID.replaceAll('-', ''),
    UUID.replace('e', 'g'),
  ])('refuses the id %j', (id) => {
    const got = `got ${JSON.stringify(id)}.`
    expect(refusal(() => readTokenId(id)).message).toBe(
      `Input 'tokenId' must be a UUID like 123e4567-e89b-42d3-a456-426614174000; ${got}`,
    )
    expect(refusal(() => readProjectId(id)).message).toBe(
      `Input 'expectedProjectId' must be a project id (a UUID) like 6f1c2a8e-3b4d-4e5f-9a0b-1c2d3e4f5a6b; ${got}`,
    )
  })
})
