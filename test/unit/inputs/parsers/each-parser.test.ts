// Each input parser on both sides of its rule: what it refuses, with the exact message, and
// what it accepts. envName and URLs have files of their own (env-name.test.ts, url.test.ts).
import { describe, expect, it } from '@jest/globals'
import {
  oneOf,
  readBoolean,
  readDuration,
  readAuditAge,
  readKeepIds,
  readNameFilters,
  readProjectId,
  readRequiredName,
  readTokenId,
  wholeNumber,
} from '../../../../src/inputs/parsers.js'
import { refusal } from '../../../fixtures/input-error.js'
import { PROJECT_ID, read, TOKEN_ID as UUID } from '../../../fixtures/inputs.js'

describe('oneOf', () => {
  const STATES = ['active', 'revoked', 'all'] as const

  it.each(STATES)('accepts the choice %s exactly as written', (raw) => {
    expect(oneOf(STATES)(raw, 'state')).toBe(raw)
  })

  it.each(['', 'Active', 'ALL', 'active ', 'revoke', 'any'])(
    'refuses %j, naming every choice',
    (raw) => {
      expect(refusal(() => oneOf(STATES)(raw, 'state')).message).toBe(
        `Input 'state' must be one of active, revoked, all; got ${JSON.stringify(raw)}.`,
      )
    },
  )
})

describe('readBoolean', () => {
  it.each(['true', 'True', 'TRUE'])('reads %s as true', (raw) => {
    expect(readBoolean(raw, 'dryRun')).toBe(true)
  })

  it.each(['false', 'False', 'FALSE'])('reads %s as false', (raw) => {
    expect(readBoolean(raw, 'dryRun')).toBe(false)
  })

  it.each(['', 'tRUE', 'fAlse', 'yes', 'no', 'on', 'off', '1', '0', 'y', 'true '])(
    'refuses %j, which is not a YAML 1.2 boolean',
    (raw) => {
      expect(refusal(() => readBoolean(raw, 'dryRun')).message).toBe(
        `Input 'dryRun' must be true or false; got ${JSON.stringify(raw)}.`,
      )
    },
  )
})

describe('wholeNumber', () => {
  it.each(['0', '7', '10', '007'])('accepts %j', (raw) => {
    expect(wholeNumber(0, 10)(raw, 'retries')).toBe(Number(raw))
  })

  it.each([
    ...['', '-1', '11', '3.5', ' 3', '3 ', '+3', '1e1', '0x1', '٣', 'three'],
    '99999999999999999999', // past Number.MAX_SAFE_INTEGER: still out of range, not rounded in
  ])('refuses %j', (raw) => {
    expect(refusal(() => wholeNumber(0, 10)(raw, 'retries')).message).toBe(
      `Input 'retries' must be a whole number from 0 to 10; got ${JSON.stringify(raw)}.`,
    )
  })
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

  it('reads an empty olderThan as no age limit, but audit requires one', () => {
    expect(readDuration('')).toBeUndefined()
    expect(readAuditAge('90d')).toEqual({ text: '90d', ms: 90 * 86_400_000 })
    expect(refusal(() => readAuditAge('')).message).toBe(
      "Input 'olderThan' is required for operation audit: the age past which an active token is a finding (90d, 12h, 2w).",
    )
    expect(refusal(() => readAuditAge('90')).message).toContain("Input 'olderThan' must be")
  })

  it.each(['0d', '30', '30s', '1.5h', '1y', '30D', '-1d', ' 30d', '30d ', 'd', '00m'])(
    'refuses %j',
    (raw) => {
      // The words: test/unit/inputs/parsers/golden-messages.test.ts.
      const { input, message } = refusal(() => readDuration(raw))
      expect(input).toBe('olderThan')
      expect(message).toContain('must be a whole number and a unit')
      expect(message).toContain(`got ${JSON.stringify(raw)}.`)
    },
  )
})

describe('names and ids', () => {
  const CONTROL =
    "Input 'name' must not hold control characters (tabs, carriage returns) within a line; got"

  it.each([
    ['"a\\rb"', 'a\rb'],
    ['"a\\tb"', 'a\tb'],
    ['"a\\u0000b"', 'a\u0000b'],
    ['"a\\u007fb"', 'a\u007fb'],
    ['"a\\u0085b"', 'a\u0085b'],
    ['"a\\u009fb"', 'a\u009fb'],
    // The ends of both ranges: the last C0 control, the first C1 control.
    ['"a\\u001fb"', 'a\u001fb'],
    ['"a\\u0080b"', 'a\u0080b'],
    ['"\\u0001"', '\u0001'],
  ])('refuses the name %s', (quoted, name) => {
    expect(refusal(() => readRequiredName(name)).message).toBe(`${CONTROL} ${quoted}.`)
    expect(refusal(() => readNameFilters(`ok\n${name}`)).message).toBe(`${CONTROL} ${quoted}.`)
  })

  it('reads name filters one per line: blank lines and the spaces around a line dropped', () => {
    expect(readNameFilters('preview-pr-7\n\n  preview-pr-9  \r\n\tci-*\n')).toEqual([
      'preview-pr-7',
      'preview-pr-9',
      'ci-*',
    ])
    expect(readNameFilters(' \n\r\n  ')).toBeUndefined()
  })

  it.each([
    ['"a\\nb"', 'a\nb'],
    ['"a\\r\\nb"', 'a\r\nb'],
    ['"\\n\\nb"', '\n\nb'],
  ])('refuses a create name of more than one line, %s', (quoted, name) => {
    expect(refusal(() => readRequiredName(name)).message).toBe(
      `Input 'name' must be one line for operation create: a token has one name (several lines are filters, for list, cleanup and audit); got ${quoted}.`,
    )
  })

  it.each([
    ...['ci-deploy', 'ci deploy', ' padded ', 'déploiement ✓', '日本語', '🚀'],
    // Next to the control ranges: space after C0, ~ before DEL, no-break space after C1.
    ...['a b', 'a~b', 'a\u00a0b'],
  ])('accepts the name %j', (name) => {
    expect(readRequiredName(name)).toBe(name.trim())
    expect(readNameFilters(name)).toEqual([name.trim()])
  })

  it('refuses an empty name where one is required, and an empty tokenId', () => {
    expect(refusal(() => readRequiredName('')).message).toBe(
      "Input 'name' is required for this operation: the new token's name.",
    )
    expect(refusal(() => readTokenId('')).message).toBe(
      "Input 'tokenId' is required for operation revoke: the id (a UUID) of the token.",
    )
  })

  it('reads an empty filter as none, and a long bad value cut short in the message', () => {
    expect(readNameFilters('')).toBeUndefined()
    expect(readProjectId('')).toBeUndefined()
    expect(refusal(() => readTokenId('x'.repeat(500))).message).toBe(
      `Input 'tokenId' must be a UUID like 123e4567-e89b-42d3-a456-426614174000; got "${'x'.repeat(77)}...".`,
    )
  })

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
    const tokenId = refusal(() => readTokenId(id))
    expect(tokenId.input).toBe('tokenId')
    expect(tokenId.message).toContain('must be a UUID')
    expect(tokenId.message).toContain(got)
    const projectId = refusal(() => readProjectId(id))
    expect(projectId.input).toBe('expectedProjectId')
    expect(projectId.message).toContain('must be a project id (a UUID)')
    expect(projectId.message).toContain(got)
  })
})

describe('readKeepIds', () => {
  const REFUSED =
    "Input 'keepIds' must hold token ids (UUIDs), one per line, like 123e4567-e89b-42d3-a456-426614174000; got"

  it.each<[string, string[]]>([
    ['', []],
    [UUID, [UUID]],
    // One per line; blank lines and the spaces around a line dropped; ids in any case.
    [`\n ${UUID} \r\n\n${PROJECT_ID.toUpperCase()}\n`, [UUID, PROJECT_ID.toUpperCase()]],
  ])('reads %j as %j', (raw, ids) => {
    expect(readKeepIds(raw)).toEqual(ids)
  })

  it.each<[string, string]>([
    ['latest', 'latest'],
    ['mediator-production', 'mediator-production'],
    // Each line is one id: two on a line, or a list written with commas, is refused.
    [`${UUID}, ${PROJECT_ID}`, `${UUID}, ${PROJECT_ID}`],
    [`${UUID} ${PROJECT_ID}`, `${UUID} ${PROJECT_ID}`],
    // One bad line among good ones is enough: it would keep nothing.
    [`${UUID}\n${UUID.slice(1)}`, UUID.slice(1)],
    [`{${UUID}}`, `{${UUID}}`],
  ])('refuses %j, naming the input and the line', (raw, line) => {
    const error = refusal(() => readKeepIds(raw))
    expect(error.input).toBe('keepIds')
    expect(error.message).toBe(`${REFUSED} ${JSON.stringify(line)}.`)
  })

  it('is read for a cleanup, and refused there before anything is sent', () => {
    const { inputs } = read({ operation: 'cleanup', name: 'ci-*', keepIds: `${UUID}\n` })
    expect(inputs.task).toMatchObject({ operation: 'cleanup', keepIds: [UUID] })
    expect(read({ operation: 'cleanup', name: 'ci-*' }).inputs.task).toMatchObject({ keepIds: [] })
    const error = refusal(() => read({ operation: 'cleanup', name: 'ci-*', keepIds: 'v2' }))
    expect(error.message).toBe(`${REFUSED} "v2".`)
  })
})
