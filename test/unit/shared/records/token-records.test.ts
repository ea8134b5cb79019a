import { describe, expect, it } from '@jest/globals'
import {
  createdTime,
  findById,
  newestFirst,
  projectOf,
  toRecord,
  publicJson,
  tokenLabel,
  uniqueById,
  type TokenRecord,
} from '../../../../src/shared/records.js'
import { TOKEN_ID } from '../../../fixtures/inputs.js'

const token = (id: string, createdAt?: string): TokenRecord => ({
  id,
  name: 'n',
  state: 'active',
  ...(createdAt === undefined ? {} : { createdAt }),
})

describe('toRecord', () => {
  it('copies the known fields and drops unknown ones', () => {
    const record = toRecord({
      id: 'a',
      name: 'n',
      state: 'active',
      tokenValue: 'v',
      createdAt: 't',
      future: 'x',
      mediatorId: 7,
    })
    expect(record).toEqual({ id: 'a', name: 'n', state: 'active', tokenValue: 'v', createdAt: 't' })
  })

  it.each<[unknown]>([[7], [['a']], [null], [{ text: 'a' }], [true]])(
    'leaves out a name that is not text (%j), rather than read it as text',
    (name) => {
      const record = toRecord({ id: 'a', name, state: 'active' })
      expect(record).toEqual({ id: 'a', state: 'active' })
      // Two such records do not share a name: neither has one.
      expect(typeof record === 'object' && 'name' in record).toBe(false)
    },
  )

  it.each(['', '   ', '\t\n'])('reads a blank tokenValue (%j) as none', (tokenValue) => {
    expect(toRecord({ id: 'a', name: 'n', state: 'active', tokenValue })).toEqual({
      id: 'a',
      name: 'n',
      state: 'active',
    })
  })

  it('keeps an empty name: it is text', () => {
    expect(toRecord({ id: 'a', name: '', state: 'active' })).toEqual({
      id: 'a',
      name: '',
      state: 'active',
    })
  })

  it.each<[unknown, string]>([
    [null, 'not an object'],
    [[], 'not an object'],
    ['text', 'not an object'],
    [{ state: 'active' }, 'a record without an id'],
    [{ id: '', state: 'active' }, 'a record without an id'],
    [{ id: 'a' }, 'a record without a state'],
    [{ id: 'a', state: '' }, 'a record without a state'],
    [{ id: 'a', state: 3 }, 'a record without a state'],
  ])('refuses %j: %s', (value, reason) => {
    expect(toRecord(value)).toBe(reason)
  })
})

describe('publicJson', () => {
  it('writes a record without tokenValue, the public fields in a fixed order', () => {
    const record: TokenRecord = {
      revokedBy: 'u',
      tokenValue: 'secret',
      ...token('a', '2026-01-01T00:00:00Z'),
    }
    expect(publicJson(record)).toBe(
      '{"id":"a","name":"n","state":"active","createdAt":"2026-01-01T00:00:00Z","revokedBy":"u"}',
    )
  })

  it('writes a list the same way, dropping any field it does not know', () => {
    const odd = { ...token('b'), future: 'x' } as TokenRecord
    expect(JSON.parse(publicJson([token('a'), odd]))).toEqual([
      { id: 'a', name: 'n', state: 'active' },
      { id: 'b', name: 'n', state: 'active' },
    ])
  })
})

describe('newestFirst', () => {
  it('orders by createdAt, newest first, unreadable dates last in their order', () => {
    const records = [
      token('old', '2026-01-01T00:00:00Z'),
      token('bad-1', 'yesterday'),
      token('new', '2026-03-01T00:00:00Z'),
      token('none'),
      token('mid', '2026-02-01T00:00:00+00:00'),
    ]
    expect(newestFirst(records).map((r) => r.id)).toEqual(['new', 'mid', 'old', 'bad-1', 'none'])
  })

  it('reads createdAt as a time, or undefined', () => {
    expect(createdTime(token('a', '2026-01-01T00:00:00Z'))).toBe(Date.UTC(2026, 0, 1))
    expect(createdTime(token('a', 'soon'))).toBeUndefined()
  })
})

describe('tokenLabel and findById', () => {
  it('names a token on one line', () => {
    expect(tokenLabel({ id: 'a\nb', name: 'x\r\n::y' })).toBe("gateway token 'x ::y' (a b)")
    // Short whatever the platform sent: a name cut at 200 characters, an id at 80.
    const label = tokenLabel({ id: 'i'.repeat(1_000), name: 'n'.repeat(140_000) })
    expect(label).toBe(`gateway token '${'n'.repeat(197)}...' (${'i'.repeat(77)}...)`)
    expect(tokenLabel({ id: 'i'.repeat(80), name: 'n'.repeat(200) })).toBe(
      `gateway token '${'n'.repeat(200)}' (${'i'.repeat(80)})`,
    )
  })

  it('names a token whose name is not text as such, by its id', () => {
    expect(tokenLabel({ id: 'a' })).toBe('gateway token (a name that is not text) (a)')
    expect(tokenLabel({ id: 'a', name: '' })).toBe("gateway token '' (a)")
  })

  it('finds a record by id whatever the case', () => {
    const records = [token('ABC-1'), token('def-2')]
    expect(findById(records, 'abc-1')?.id).toBe('ABC-1')
    expect(findById(records, 'DEF-2')?.id).toBe('def-2')
    expect(findById(records, 'ghi-3')).toBeUndefined()
  })
})

describe('uniqueById', () => {
  it('keeps one record per id, the first listed, ids compared without regard to case', () => {
    const records = [token('A-1'), token('b'), token('a-1'), token('b'), token('c')]
    expect(uniqueById(records).map((t) => t.id)).toEqual(['A-1', 'b', 'c'])
  })

  it('takes a UUID in upper and in lower case for one id', () => {
    const id = TOKEN_ID
    const records = [token(id.toUpperCase()), token(id)]
    expect(uniqueById(records).map((t) => t.id)).toEqual([id.toUpperCase()])
  })

  it('keeps ids that differ in anything but case, one digit or a space included', () => {
    const id = TOKEN_ID
    const records = [token(id), token(id.replace(/0$/, '1')), token(`${id} `)]
    expect(uniqueById(records)).toBe(records)
  })

  it('compares every letter without regard to case, not only hex digits and ASCII', () => {
    // Letters past F, and letters past Z.
    const records = [token('XYZ-1'), token('xyz-1'), token('ÉÉ'), token('éé')]
    expect(uniqueById(records).map((t) => t.id)).toEqual(['XYZ-1', 'ÉÉ'])
    expect(findById(records, 'Xyz-1')?.id).toBe('XYZ-1')
    expect(findById(records, 'Éé')?.id).toBe('ÉÉ')
  })

  it('returns a list without duplicates as it is', () => {
    const records = [token('a'), token('b')]
    expect(uniqueById(records)).toBe(records)
  })
})

describe('newestFirst with ties', () => {
  it('orders tokens created in the same second by id, whatever the order given', () => {
    const tied = [token('c', '2026-11-20T10:00:01Z'), token('a', '2026-11-20T10:00:01Z')]
    const newer = token('z', '2026-11-20T10:00:02Z')
    expect(newestFirst([...tied, newer]).map((t) => t.id)).toEqual(['z', 'a', 'c'])
    expect(newestFirst([newer, ...tied].reverse()).map((t) => t.id)).toEqual(['z', 'a', 'c'])
  })

  it('orders four tokens of one second by id, in all 24 orders they may be listed in', () => {
    const tied = ['d', 'b', 'a', 'c'].map((id) => token(id, '2026-11-20T10:00:01Z'))
    const orders = permutations(tied).map((listed) => newestFirst(listed).map((t) => t.id))
    expect(orders).toHaveLength(24)
    expect(new Set(orders.map((ids) => ids.join()))).toEqual(new Set(['a,b,c,d']))
  })

  it('orders tokens whose dates cannot be read by id, in all 6 orders they may be listed in', () => {
    const unread = [token('c', 'soon'), token('a'), token('b', '12')]
    const orders = permutations(unread).map((listed) => newestFirst(listed).map((t) => t.id))
    expect(new Set(orders.map((ids) => ids.join()))).toEqual(new Set(['a,b,c']))
  })

  it('orders tokens of different times newest first, whatever their ids', () => {
    const tokens = [
      token('a', '2026-11-20T10:00:01Z'),
      token('b', '2026-11-20T10:00:03Z'),
      token('c', '2026-11-20T10:00:02Z'),
      token('d'),
    ]
    const orders = permutations(tokens).map((listed) => newestFirst(listed).map((t) => t.id))
    expect(new Set(orders.map((ids) => ids.join()))).toEqual(new Set(['b,c,a,d']))
  })
})

/** Every order of `items`. */
function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]]
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  )
}

describe('projectOf', () => {
  const P = '6f1c2a8e-3b4d-4e5f-9a0b-1c2d3e4f5a6b'
  const Q = '0d4e5f6a-7b8c-4d9e-8f0a-1b2c3d4e5f6a'
  const of = (...projects: (string | undefined)[]) =>
    projectOf(
      projects.map((projectId, i) => ({
        ...token(`t${i}`),
        ...(projectId === undefined ? {} : { projectId }),
      })),
    )

  it('names the project every record carries, in the first record’s spelling, case aside', () => {
    expect(of(P)).toEqual({ id: P })
    expect(of(P.toUpperCase(), P, P)).toEqual({ id: P.toUpperCase() })
  })

  it('says several when the records carry two projects or more', () => {
    expect(of(P, Q)).toBe('several')
    expect(of(P, P, Q, P)).toBe('several')
  })

  it('says nothing when no record is listed, or one does not carry a projectId', () => {
    expect(of()).toBeUndefined()
    expect(of(undefined, P)).toBeUndefined()
    expect(of(P, undefined)).toBeUndefined()
    expect(of(P, Q, undefined)).toBeUndefined()
  })
})
