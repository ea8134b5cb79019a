import { describe, expect, it } from '@jest/globals'
import {
  parseJson,
  readAccessToken,
  readCreated,
  readList,
  type Answer,
} from '../../../../src/platform/api.js'
import { RequestError } from '../../../../src/shared/errors.js'
import { TOKEN_ID as ID } from '../../../fixtures/inputs.js'

const REQUEST = { method: 'POST' as const, url: 'https://api.example.com/api/tokens', headers: {} }
const answer = (status: number, json: unknown): Answer => ({
  status,
  statusText: '',
  headers: {},
  body: '',
  json,
})
const record = (fields: Record<string, unknown> = {}) => ({
  id: ID,
  name: 'ci',
  state: 'active',
  tokenValue: 'v',
  ...fields,
})

describe('readCreated', () => {
  it('reads a new token whose id is a UUID', () => {
    expect(readCreated(REQUEST, answer(201, record()))).toMatchObject({ id: ID, tokenValue: 'v' })
  })

  it.each(['..', '.', 'a/b', `${ID}/..`, ''])(
    'refuses the id %j, which could not go into a URL',
    (id) => {
      expect(() => readCreated(REQUEST, answer(201, record({ id })))).toThrow(RequestError)
    },
  )

  it('says why, without the value', () => {
    // The words: test/unit/platform/api/golden-messages.test.ts.
    const created = record({ id: '..', tokenValue: 'the-new-value' })
    const refused = () => readCreated(REQUEST, answer(201, created))
    expect(refused).toThrow(`POST ${REQUEST.url} answered 201`)
    expect(refused).toThrow('id ".." is not a UUID')
    expect(refused).toThrow('look for the token with operation: list')
    expect(refused).not.toThrow('the-new-value')
  })

  it('refuses a new token without its value', () => {
    expect(() => readCreated(REQUEST, answer(201, record({ tokenValue: undefined })))).toThrow(
      /has no tokenValue/,
    )
  })
})

describe('readList', () => {
  it('keeps one record per id', () => {
    const other = record({ id: ID.replace('1', '9') })
    const list = readList(REQUEST, answer(200, [record(), other, record(), other]))
    expect(list.map((t) => t.id)).toEqual([ID, other.id])
  })

  it('keeps records of any id (it only lists them), and every distinct one', () => {
    const list = readList(REQUEST, answer(200, [record({ id: '..' }), record()]))
    expect(list.map((t) => t.id)).toEqual(['..', ID])
  })
})

describe('readAccessToken', () => {
  const now = Date.UTC(2026, 10, 22)

  it('reads a token that can be sent as a header value', () => {
    const token = readAccessToken(
      REQUEST,
      answer(200, { access_token: 'eyJ.a-b_c~d+/=', expires_in: 600 }),
      now,
    )
    expect(token).toEqual({ value: 'eyJ.a-b_c~d+/=', renewAt: now + 600_000 - 60_000 })
  })

  it('reads a real JWT, and the spelling accessToken of an older client', () => {
    const jwt =
      'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c'
    expect(readAccessToken(REQUEST, answer(200, { access_token: jwt }), now)).toEqual({
      value: jwt,
      renewAt: undefined,
    })
    expect(readAccessToken(REQUEST, answer(200, { accessToken: jwt }), now).value).toBe(jwt)
  })

  it.each([{}, { access_token: '' }, { access_token: 42 }, { access_token: null }, [], null, 'a'])(
    'refuses %j: no non-empty access_token',
    (json) => {
      expect(() => readAccessToken(REQUEST, answer(200, json), now)).toThrow(
        `POST ${REQUEST.url} answered 200 without an access_token.`,
      )
    },
  )

  it.each([
    ...['eyJ\r\nX-Evil: 1', 'eyJ\r', 'eyJ\nabc', 'eyJ€', 'eyJ\u0000', 'eyJ abc', 'eyJ\tabc'],
    ...['eyJ\u007f', 'eyJé', ' eyJ'],
  ])('refuses %j, which cannot be sent as a header value', (value) => {
    // The words: test/unit/platform/api/golden-messages.test.ts.
    const refused = () => readAccessToken(REQUEST, answer(200, { access_token: value }), now)
    expect(refused).toThrow(`POST ${REQUEST.url} answered 200`)
    expect(refused).toThrow('access_token cannot be sent as a header value')
    expect(refused).not.toThrow(value)
  })
})

describe('parseJson', () => {
  it('parses a body nested 30,000 levels deep without overflowing', () => {
    const depth = 30_000
    const body = '{"error":'.repeat(depth) + '"x"' + '}'.repeat(depth)
    expect(typeof parseJson(body)).toBe('object')
  })
})
