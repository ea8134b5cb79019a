// Which token a create whose answer was lost made: its window, the one candidate, and where to look.
import { describe, expect, it } from '@jest/globals'
import { createWindow, findCreated, lookForSentence } from '../../../../src/platform/create-life.js'
import type { PlatformTime } from '../../../../src/platform/call-loop.js'
import type { TokenRecord } from '../../../../src/shared/records.js'

const SENT_AT = Date.parse('2026-11-01T10:00:00.000Z')
const PR7 = { name: 'pr-7', sentAt: SENT_AT }
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
    expect(findCreated(tokens, PR7, skewed(0))).toEqual({
      found: 'one',
      token: tokens[1],
    })
  })

  it('allows for the Date header’s whole seconds: 2 s before is in, 3 s before is out', () => {
    expect(findCreated([token('a', -2_000)], PR7, skewed(0)).found).toBe('one')
    expect(findCreated([token('a', -3_000)], PR7, skewed(0)).found).toBe('none')
  })

  it('reads createdAt by the platform’s clock: 30 s behind, a token 30 s "before" is the create’s', () => {
    const behind = skewed(-30_000)
    expect(findCreated([token('mine', -29_000)], PR7, behind).found).toBe('one')
    expect(findCreated([token('older', -40_000)], PR7, behind).found).toBe('none')
  })

  it('names every candidate, newest first, when there are several', () => {
    const tokens = [token('a', 1_000), token('b', 3_000)]
    expect(findCreated(tokens, PR7, skewed(0))).toEqual({
      found: 'several',
      tokens: [tokens[1], tokens[0]],
    })
  })

  it('is unsure of a token whose createdAt cannot be read: it may be the create’s, or older', () => {
    const tokens = [token('a', 1_000, { createdAt: 'yesterday' })]
    // The words of each why: test/unit/platform/create-life/golden-messages-find.test.ts.
    expect(findCreated(tokens, PR7, skewed(0))).toEqual({
      found: 'unsure',
      token: tokens[0],
      why: expect.stringContaining('its createdAt ("yesterday") cannot be read'),
    })
  })

  it('is unsure of a token listed without a createdAt, and says it cannot be read', () => {
    const undated: TokenRecord = { id: 'a', name: 'pr-7', state: 'active' }
    expect(findCreated([undated], PR7, skewed(0))).toEqual({
      found: 'unsure',
      token: undated,
      why: expect.stringContaining('its createdAt ("") cannot be read'),
    })
  })

  it('counts a token whose createdAt cannot be read among several candidates', () => {
    const tokens = [token('mine', 1_000), token('odd', 0, { createdAt: '12' })]
    expect(findCreated(tokens, PR7, skewed(0))).toEqual({
      found: 'several',
      tokens: [tokens[0], tokens[1]],
    })
  })
})

describe('findCreated, without a Date header', () => {
  it('takes a token created after the create was sent by the runner’s clock', () => {
    const tokens = [token('mine', 1_000)]
    expect(findCreated(tokens, PR7, noDate)).toEqual({
      found: 'one',
      token: tokens[0],
    })
  })

  it('is unsure of a lone token made 30 s before the create: it may be another deployment’s', () => {
    const tokens = [token('theirs', -30_000)]
    expect(findCreated(tokens, PR7, noDate)).toEqual({
      found: 'unsure',
      token: tokens[0],
      why: expect.stringMatching(
        /^it was created 30 s before the create was sent.* no Date header/,
      ),
    })
  })

  it('allows 2 s for the platform’s whole seconds: 2 s before is the create’s, 3 s before is unsure', () => {
    expect(findCreated([token('a', -2_000)], PR7, noDate).found).toBe('one')
    expect(findCreated([token('a', -3_000)], PR7, noDate).found).toBe('unsure')
  })

  it('still looks a minute back, so that a token of another clock is not missed', () => {
    expect(findCreated([token('a', -59_000)], PR7, noDate).found).toBe('unsure')
    expect(findCreated([token('a', -61_000)], PR7, noDate).found).toBe('none')
  })

  it('counts a token from the minute before as a candidate: with one after, there are two', () => {
    const tokens = [token('theirs', -30_000), token('mine', 1_000)]
    expect(findCreated(tokens, PR7, noDate).found).toBe('several')
  })
})

describe('findCreated: only what the create could have made, and not the one known', () => {
  // Sent again 5 min after the first send, the create lands within a minute of its last send:
  // a later token of the name is another's (a job that made one later), even the only one.
  const resent = { ...PR7, lastInFlightAt: SENT_AT + 300_000 }
  const last = 300_000 + 60_000 + 2_000

  it('takes one made at the last moment it could land, and none made a second later', () => {
    expect(findCreated([token('own', last)], resent, skewed(0)).found).toBe('one')
    expect(findCreated([token('later', last + 1_000)], resent, skewed(0)).found).toBe('none')
  })

  it('without a Date header, allows the clocks a minute more, and no more', () => {
    const unknown = last - 2_000 + 60_000
    expect(findCreated([token('own', unknown)], resent, noDate).found).toBe('one')
    expect(findCreated([token('x', unknown + 1_000)], resent, noDate).found).toBe('none')
  })

  it('sent once, ends a minute after that send, however long totalTimeout is', () => {
    expect(findCreated([token('own', 62_000)], PR7, skewed(0)).found).toBe('one')
    expect(findCreated([token('next-job', 86_400_000)], PR7, skewed(0)).found).toBe('none')
  })

  it('leaves out the token known already, whatever the case of its id', () => {
    const tokens = [token('ABC-1', 500), token('first', 1_000)]
    expect(findCreated(tokens, { ...PR7, id: 'abc-1' }, skewed(0))).toEqual({
      found: 'one',
      token: tokens[1],
    })
  })
})

describe('createWindow', () => {
  it('starts 2 s before the send on the platform’s clock, 60 s before on the runner’s', () => {
    expect(createWindow(PR7, skewed(5_000))).toEqual({
      since: SENT_AT + 3_000,
      until: SENT_AT + 5_000 + 62_000,
      clockKnown: true,
    })
    expect(createWindow(PR7, noDate)).toEqual({
      since: SENT_AT - 60_000,
      until: SENT_AT + 120_000,
      clockKnown: false,
    })
  })

  it('ends a minute to land and the clocks’ margin after the last send', () => {
    const resent = { ...PR7, lastInFlightAt: SENT_AT + 60_000 }
    expect(createWindow(resent, skewed(5_000)).until).toBe(SENT_AT + 5_000 + 122_000)
    expect(createWindow(resent, noDate).until).toBe(SENT_AT + 180_000)
  })
})

describe('lookForSentence: where a token nobody has the value of would be', () => {
  it('says the name, the time on the platform’s clock, and the token known already', () => {
    expect(lookForSentence({ ...PR7, id: 'id-1' }, skewed(5_000))).toBe(
      "An active token named 'pr-7' other than id-1 created after 2026-11-01T10:00:03.000Z would be this step's, and nobody has its value: revoke it (operation: revoke, tokenId).",
    )
    expect(lookForSentence(PR7, noDate)).toContain("named 'pr-7' created after 2026-11-01T09:59:00")
  })
})
