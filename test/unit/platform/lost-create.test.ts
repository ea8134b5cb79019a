import { describe, expect, it } from '@jest/globals'
import { findCreated, type PlatformTime } from '../../../src/platform/lost-create.js'
import type { TokenRecord } from '../../../src/shared/records.js'

const SENT_AT = Date.parse('2026-11-01T10:00:00.000Z')
/** A token of that name, created `offsetMs` after SENT_AT by the platform's clock. */
const token = (id: string, offsetMs: number, fields: Partial<TokenRecord> = {}): TokenRecord => ({
  id,
  name: 'pr-7',
  state: 'active',
  createdAt: new Date(SENT_AT + offsetMs).toISOString().replace('.000Z', 'Z'),
  ...fields,
})
/** No Date header came: the platform's clock is unknown. */
const noDate: PlatformTime = () => undefined
/** The Date headers say the platform's clock is `skewMs` ahead of the runner's. */
const skewed =
  (skewMs: number): PlatformTime =>
  (at) =>
    at + skewMs

describe('findCreated, with the platform’s clock known from its Date headers', () => {
  it('finds the one active token of that name created since the create was sent', () => {
    const tokens = [
      token('before', -10_000),
      token('mine', 1_000),
      token('revoked', 2_000, { state: 'revoked' }),
      token('other-name', 2_000, { name: 'pr-70' }),
    ]
    expect(findCreated(tokens, 'pr-7', SENT_AT, skewed(0))).toEqual({
      found: 'one',
      token: tokens[1],
    })
  })

  it('allows for the Date header’s whole seconds: 2 s before is in, 3 s before is out', () => {
    expect(findCreated([token('a', -2_000)], 'pr-7', SENT_AT, skewed(0)).found).toBe('one')
    expect(findCreated([token('a', -3_000)], 'pr-7', SENT_AT, skewed(0)).found).toBe('none')
  })

  it('reads createdAt by the platform’s clock: 30 s behind, a token 30 s "before" is the create’s', () => {
    const behind = skewed(-30_000)
    expect(findCreated([token('mine', -29_000)], 'pr-7', SENT_AT, behind).found).toBe('one')
    expect(findCreated([token('older', -40_000)], 'pr-7', SENT_AT, behind).found).toBe('none')
  })

  it('names every candidate, newest first, when there are several', () => {
    const tokens = [token('a', 1_000), token('b', 3_000)]
    expect(findCreated(tokens, 'pr-7', SENT_AT, skewed(0))).toEqual({
      found: 'several',
      tokens: [tokens[1], tokens[0]],
    })
  })

  it('is unsure of a token whose createdAt cannot be read: it may be the create’s, or older', () => {
    const tokens = [token('a', 1_000, { createdAt: 'yesterday' })]
    // The words of each why: test/unit/golden-messages-client.test.ts.
    expect(findCreated(tokens, 'pr-7', SENT_AT, skewed(0))).toEqual({
      found: 'unsure',
      token: tokens[0],
      why: expect.stringContaining('its createdAt ("yesterday") cannot be read'),
    })
  })

  it('is unsure of a token listed without a createdAt, and says it cannot be read', () => {
    const undated: TokenRecord = { id: 'a', name: 'pr-7', state: 'active' }
    expect(findCreated([undated], 'pr-7', SENT_AT, skewed(0))).toEqual({
      found: 'unsure',
      token: undated,
      why: expect.stringContaining('its createdAt ("") cannot be read'),
    })
  })

  it('counts a token whose createdAt cannot be read among several candidates', () => {
    const tokens = [token('mine', 1_000), token('odd', 0, { createdAt: '12' })]
    expect(findCreated(tokens, 'pr-7', SENT_AT, skewed(0))).toEqual({
      found: 'several',
      tokens: [tokens[0], tokens[1]],
    })
  })
})

describe('findCreated, without a Date header', () => {
  it('takes a token created after the create was sent by the runner’s clock', () => {
    const tokens = [token('mine', 1_000)]
    expect(findCreated(tokens, 'pr-7', SENT_AT, noDate)).toEqual({
      found: 'one',
      token: tokens[0],
    })
  })

  it('is unsure of a lone token made 30 s before the create: it may be another deployment’s', () => {
    const tokens = [token('theirs', -30_000)]
    expect(findCreated(tokens, 'pr-7', SENT_AT, noDate)).toEqual({
      found: 'unsure',
      token: tokens[0],
      why: expect.stringMatching(
        /^it was created 30 s before the create was sent.* no Date header/,
      ),
    })
  })

  it('allows 2 s for the platform’s whole seconds: 2 s before is the create’s, 3 s before is unsure', () => {
    expect(findCreated([token('a', -2_000)], 'pr-7', SENT_AT, noDate).found).toBe('one')
    expect(findCreated([token('a', -3_000)], 'pr-7', SENT_AT, noDate).found).toBe('unsure')
  })

  it('still looks a minute back, so that a token of another clock is not missed', () => {
    expect(findCreated([token('a', -59_000)], 'pr-7', SENT_AT, noDate).found).toBe('unsure')
    expect(findCreated([token('a', -61_000)], 'pr-7', SENT_AT, noDate).found).toBe('none')
  })

  it('counts a token from the minute before as a candidate: with one after, there are two', () => {
    const tokens = [token('theirs', -30_000), token('mine', 1_000)]
    expect(findCreated(tokens, 'pr-7', SENT_AT, noDate).found).toBe('several')
  })
})
