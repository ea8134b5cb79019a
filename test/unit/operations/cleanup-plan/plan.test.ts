import { describe, expect, it } from '@jest/globals'
import { nameMatcher, planCleanup } from '../../../../src/operations/cleanup-plan.js'
import { token } from '../../../fixtures/token-api.js'

const NOW = Date.UTC(2026, 10, 22)
const days = (n: number) => ({ text: `${n}d`, ms: n * 86_400_000 })
const ids = (tokens: { id: string }[]) => tokens.map((t) => t.id)

describe('planCleanup', () => {
  const tokens = [
    token('a-new', 'ci-a', 1),
    token('a-mid', 'ci-a', 40),
    token('a-old', 'ci-a', 90),
    token('b-old', 'ci-b', 60),
    token('b-revoked', 'ci-b', 100, { state: 'revoked', tokenValue: undefined }),
    token('prod', 'prod', 365),
  ]

  it('revokes active tokens older than olderThan, whatever the name, newest first', () => {
    const plan = planCleanup(tokens, { name: undefined, olderThan: days(30), keep: 0 }, NOW)
    expect(ids(plan.revoke)).toEqual(['a-mid', 'b-old', 'a-old', 'prod'])
    expect(plan.kept).toEqual([])
  })

  it('leaves revoked tokens and tokens exactly at the age alone', () => {
    const plan = planCleanup(
      [token('edge', 'x', 30), token('r', 'x', 99, { state: 'revoked' })],
      { name: undefined, olderThan: days(30), keep: 0 },
      NOW,
    )
    expect(plan.revoke).toEqual([])
  })

  it('selects by name pattern', () => {
    const plan = planCleanup(tokens, { name: ['ci-*'], olderThan: days(30), keep: 0 }, NOW)
    expect(ids(plan.revoke)).toEqual(['a-mid', 'b-old', 'a-old'])
  })

  it('selects by exact name alone, of any age', () => {
    const plan = planCleanup(tokens, { name: ['ci-a'], olderThan: undefined, keep: 0 }, NOW)
    expect(ids(plan.revoke)).toEqual(['a-new', 'a-mid', 'a-old'])
  })

  it('keeps the newest active tokens of each name, whatever their age', () => {
    const plan = planCleanup(tokens, { name: ['ci-*'], olderThan: undefined, keep: 1 }, NOW)
    expect(ids(plan.revoke)).toEqual(['a-mid', 'a-old'])
    expect(plan.kept).toEqual([
      { token: expect.objectContaining({ id: 'a-new' }), why: 'keep' },
      { token: expect.objectContaining({ id: 'b-old' }), why: 'keep' },
    ])
  })

  it('combines keep and olderThan: kept ones are not counted as old', () => {
    const plan = planCleanup(tokens, { name: undefined, olderThan: days(50), keep: 1 }, NOW)
    expect(ids(plan.revoke)).toEqual(['a-old'])
    // Kept for keep: only what olderThan would have revoked. a-new is too young to be taken.
    expect(plan.kept.map((k) => [k.token.id, k.why])).toEqual([
      ['b-old', 'keep'],
      ['prod', 'keep'],
    ])
  })

  it('keeps the only active token of a name however old it is (keep: 1, the default)', () => {
    const plan = planCleanup(
      [token('prod-live', 'prod', 90), token('prod-gone', 'prod', 120, { state: 'revoked' })],
      { name: undefined, olderThan: days(30), keep: 1 },
      NOW,
    )
    expect(plan.revoke).toEqual([])
    expect(plan.kept.map((k) => [k.token.id, k.why])).toEqual([['prod-live', 'keep']])
    // keep: 0, said in so many words, revokes it.
    const explicit = planCleanup(
      plan.kept.map((k) => k.token),
      { name: undefined, olderThan: days(30), keep: 0 },
      NOW,
    )
    expect(ids(explicit.revoke)).toEqual(['prod-live'])
  })

  describe('names that are not text', () => {
    const nameless = (id: string) => token(id, 'x', 90, { name: undefined })
    const odd = [nameless('n1'), nameless('n2'), token('named', 'ci-a', 90)]

    it('never revokes them by age, nor ranks them together for keep, and reports them kept', () => {
      for (const keep of [0, 1]) {
        const plan = planCleanup(odd, { name: undefined, olderThan: days(30), keep }, NOW)
        expect(ids(plan.revoke)).toEqual(keep === 0 ? ['named'] : [])
        expect(plan.kept.filter((k) => k.why === 'unreadable name').map((k) => k.token.id)).toEqual(
          ['n1', 'n2'],
        )
      }
    })

    it("keeps them from a selection of every name ('*'), and a pattern that needs text never takes them", () => {
      const all = planCleanup(odd, { name: ['*'], olderThan: undefined, keep: 0 }, NOW)
      expect(ids(all.revoke)).toEqual(['named'])
      expect(all.kept.map((k) => k.why)).toEqual(['unreadable name', 'unreadable name'])
      const some = planCleanup(odd, { name: ['ci-*'], olderThan: undefined, keep: 0 }, NOW)
      expect(ids(some.revoke)).toEqual(['named'])
      expect(some.kept).toEqual([])
    })

    it("takes '**' as every name, like '*'", () => {
      const all = planCleanup(odd, { name: ['**'], olderThan: undefined, keep: 0 }, NOW)
      expect(ids(all.revoke)).toEqual(['named'])
      expect(all.kept.map((k) => [k.token.id, k.why])).toEqual([
        ['n1', 'unreadable name'],
        ['n2', 'unreadable name'],
      ])
    })

    it.each([
      ['*-a', ['named']],
      ['ci*', ['named']],
      ['*-db', []],
    ])('a pattern with text before or after its stars (%j) never takes them', (name, revoked) => {
      const plan = planCleanup(odd, { name: [name], olderThan: undefined, keep: 0 }, NOW)
      expect(ids(plan.revoke)).toEqual(revoked)
      expect(plan.kept).toEqual([])
    })
  })

  it('keep: 0 keeps nothing for keep, with or without a token whose date can be read', () => {
    const plan = planCleanup(
      [
        token('new', 'ci-a', 1),
        token('old', 'ci-a', 90),
        token('bad', 'ci-b', 0, { createdAt: '?' }),
      ],
      { name: ['ci-*'], olderThan: undefined, keep: 0 },
      NOW,
    )
    expect(plan).toEqual({
      revoke: [
        expect.objectContaining({ id: 'new' }),
        expect.objectContaining({ id: 'old' }),
        expect.objectContaining({ id: 'bad' }),
      ],
      kept: [],
    })
  })

  it('never revokes by age a token whose createdAt cannot be read, and reports it kept', () => {
    const odd = [
      token('bad', 'ci-a', 0, { createdAt: 'last tuesday' }),
      token('none', 'ci-a', 0, { createdAt: undefined }),
      token('old', 'ci-a', 90),
    ]
    const byAge = planCleanup(odd, { name: undefined, olderThan: days(30), keep: 0 }, NOW)
    expect(ids(byAge.revoke)).toEqual(['old'])
    expect(byAge.kept.map((k) => [k.token.id, k.why])).toEqual([
      ['bad', 'unreadable date'],
      ['none', 'unreadable date'],
    ])
    const byKeep = planCleanup(odd, { name: ['ci-a'], olderThan: undefined, keep: 1 }, NOW)
    expect(ids(byKeep.revoke)).toEqual([])
  })

  it('revokes an unreadable date with a name alone: no age is involved', () => {
    const plan = planCleanup(
      [token('bad', 'ci-a', 0, { createdAt: 'soon' })],
      { name: ['ci-a'], olderThan: undefined, keep: 0 },
      NOW,
    )
    expect(ids(plan.revoke)).toEqual(['bad'])
  })

  describe('ties (whole-second timestamps)', () => {
    const at = (id: string, name: string, createdAt: string) => token(id, name, 0, { createdAt })
    const tied = [
      at('t-newest', 'ci', '2026-11-20T10:00:02Z'),
      at('t-b', 'ci', '2026-11-20T10:00:01Z'),
      at('t-a', 'ci', '2026-11-20T10:00:01Z'),
      at('t-old', 'ci', '2026-11-20T10:00:00Z'),
    ]
    const plan = (tokens: typeof tied, keep: number) =>
      planCleanup(tokens, { name: ['ci'], olderThan: undefined, keep }, NOW)

    it('keeps every token that ties with the last one kept, rather than revoke one of them', () => {
      const result = plan(tied, 2)
      expect(ids(result.kept.map(({ token }) => token))).toEqual(['t-newest', 't-a', 't-b'])
      expect(ids(result.revoke)).toEqual(['t-old'])
    })

    it('revokes what is strictly older than the boundary', () => {
      const result = plan(tied, 1)
      expect(ids(result.kept.map(({ token }) => token))).toEqual(['t-newest'])
      expect(ids(result.revoke)).toEqual(['t-a', 't-b', 't-old'])
    })

    it('decides the same whatever order the platform listed the tokens in', () => {
      const reversed = plan([...tied].reverse(), 2)
      expect(reversed).toEqual(plan(tied, 2))
    })

    it('keep 1 after a rotation: keeps both tokens that tie as newest, in either order; a second older goes', () => {
      const rotated = [
        at('t-new', 'ci', '2026-11-20T10:00:01Z'),
        at('t-same-second', 'ci', '2026-11-20T10:00:01Z'),
        at('t-second-older', 'ci', '2026-11-20T10:00:00Z'),
      ]
      for (const tokens of [rotated, [...rotated].reverse()]) {
        const result = plan(tokens, 1)
        expect(ids(result.kept.map(({ token }) => token))).toEqual(['t-new', 't-same-second'])
        expect(ids(result.revoke)).toEqual(['t-second-older'])
      }
    })

    it('keeps a tie at the boundary even when olderThan would take it; a second older goes', () => {
      // All four are about 2 days old: olderThan 1d alone revokes every one.
      const byAgeAlone = planCleanup(tied, { name: ['ci'], olderThan: days(1), keep: 0 }, NOW)
      expect(ids(byAgeAlone.revoke)).toEqual(['t-newest', 't-a', 't-b', 't-old'])
      for (const tokens of [tied, [...tied].reverse()]) {
        const result = planCleanup(tokens, { name: ['ci'], olderThan: days(1), keep: 2 }, NOW)
        expect(result.kept).toEqual([
          { token: expect.objectContaining({ id: 't-newest' }), why: 'keep' },
          { token: expect.objectContaining({ id: 't-a' }), why: 'keep' },
          { token: expect.objectContaining({ id: 't-b' }), why: 'keep' },
        ])
        expect(ids(result.revoke)).toEqual(['t-old'])
      }
    })

    it('keeps all when there are fewer than keep', () => {
      expect(plan(tied, 10).revoke).toEqual([])
      expect(plan(tied, 10).kept).toHaveLength(4)
    })
  })
})

describe('nameMatcher', () => {
  it.each<[string, string, boolean]>([
    ['ci-deploy', 'ci-deploy', true],
    ['ci-deploy', 'ci-deploy-2', false],
    ['ci-deploy', 'CI-DEPLOY', false],
    ['ci-*', 'ci-deploy', true],
    ['ci-*', 'ci-', true],
    ['ci-*', 'prod-ci-deploy', false],
    ['*-staging', 'eu-staging', true],
    ['*-staging', 'eu-staging-2', false],
    ['ci-*-db', 'ci-eu-db', true],
    ['ci-*-db', 'ci-db', false],
    ['a*b*c', 'abc', true],
    ['a*b*c', 'aXbYc', true],
    ['a*b*c', 'acb', false],
    ['a*a', 'a', false],
    ['*', '', true],
    ['*', 'anything', true],
    ['**', 'x', true],
    ['ci.*', 'ciX', false],
    ['[ci]-*', '[ci]-x', true],
    ['a+b', 'aab', false],
    // The middle parts: each one present, in order, within the span between the fixed ends.
    ['a*b*c', 'aXc', false],
    ['ci-*-eu-*-db', 'ci-x-eu-y-db', true],
    ['ci-*-eu-*-db', 'ci-x-us-y-db', false],
    ['a*b*c*d', 'abcd', true],
    ['a*b*c*d', 'acbd', false],
    ['a*c*b*d', 'acbd', true],
    // A middle part may not reach into the fixed end: `b` and the last `b` are two.
    ['a*b*b', 'ab', false],
    ['a*b*b', 'abb', true],
    ['x*bc*c', 'xbc', false],
    ['x*bc*c', 'xbcc', true],
    // ...nor into the fixed start.
    ['ab*b*', 'ab', false],
    ['ab*b*', 'abb', true],
    // Empty middle parts change nothing.
    ['a**b', 'ab', true],
    ['a***b*c', 'abc', true],
    ['a***b*c', 'ac', false],
  ])('%s against %s is %s', (pattern, name, expected) => {
    expect(nameMatcher([pattern])(name)).toBe(expected)
  })

  it('matches a record without a name only with a filter that takes every name', () => {
    for (const filters of [['x'], ['*x*'], ['x*', '*y']])
      expect(nameMatcher(filters)(undefined)).toBe(false)
    for (const filters of [undefined, ['*'], ['x', '**']])
      expect(nameMatcher(filters)(undefined)).toBe(true)
  })

  it('takes a name that any line matches, each line whole: look-alikes stay out', () => {
    const matches = nameMatcher(['preview-pr-7', 'preview-pr-9', 'ci-*'])
    for (const name of ['preview-pr-7', 'preview-pr-9', 'ci-', 'ci-build'])
      expect(matches(name)).toBe(true)
    for (const name of [
      'preview-pr-70',
      'preview-pr-7-debug',
      'xpreview-pr-7',
      'preview-pr-',
      'ci',
    ])
      expect(matches(name)).toBe(false)
  })
})
