// planCleanup's keepIds: a token named by its id is never revoked, whatever its age or keep; every other rule holds beside it.
import { describe, expect, it } from '@jest/globals'
import { planCleanup } from '../../../../src/operations/cleanup-plan.js'
import { token } from '../../../fixtures/token-api.js'

const NOW = Date.UTC(2026, 10, 22)
const days = (n: number) => ({ text: `${n}d`, ms: n * 86_400_000 })
const ids = (tokens: { id: string }[]) => tokens.map((t) => t.id)
const why = (plan: ReturnType<typeof planCleanup>) => plan.kept.map((k) => [k.token.id, k.why])

describe('planCleanup: keepIds', () => {
  // A rotation's name: the token just rolled out, an older one, and one made since (another run).
  const rotation = [
    token('since', 'mediator', 0),
    token('rolled-out', 'mediator', 1),
    token('old', 'mediator', 40),
    token('older', 'mediator', 90),
  ]

  it('keeps the token of an id in keepIds, and revokes the others as keep: 0 says', () => {
    const plan = planCleanup(
      rotation,
      { name: ['mediator'], olderThan: undefined, keep: 0, keepIds: ['rolled-out'] },
      NOW,
    )
    expect(ids(plan.revoke)).toEqual(['since', 'old', 'older'])
    expect(why(plan)).toEqual([['rolled-out', 'keepIds']])
  })

  it('keeps it when it is not the newest of its name: keep: 1 alone would revoke it', () => {
    const task = { name: ['mediator'], olderThan: undefined, keep: 1 }
    expect(ids(planCleanup(rotation, task, NOW).revoke)).toEqual(['rolled-out', 'old', 'older'])
    const plan = planCleanup(rotation, { ...task, keepIds: ['rolled-out'] }, NOW)
    expect(ids(plan.revoke)).toEqual(['old', 'older'])
    expect(why(plan)).toEqual([
      ['since', 'keep'],
      ['rolled-out', 'keepIds'],
    ])
  })

  it('names keepIds, not keep, for the newest token it names; keep spares no other for it', () => {
    const plan = planCleanup(
      rotation.slice(1),
      { name: ['mediator'], olderThan: undefined, keep: 1, keepIds: ['rolled-out'] },
      NOW,
    )
    expect(ids(plan.revoke)).toEqual(['old', 'older'])
    expect(why(plan)).toEqual([['rolled-out', 'keepIds']])
  })

  it('keeps a token however old it is, beside olderThan, and compares ids without case', () => {
    const plan = planCleanup(
      [token('0a1b-old', 'ci-a', 200), token('0a1b-older', 'ci-a', 300)],
      { name: undefined, olderThan: days(30), keep: 0, keepIds: ['0A1B-OLDER'] },
      NOW,
    )
    expect(ids(plan.revoke)).toEqual(['0a1b-old'])
    expect(why(plan)).toEqual([['0a1b-older', 'keepIds']])
  })

  it('gives keepIds as the reason for a token it would keep anyway (unreadable date or name)', () => {
    const undated = token('undated', 'ci-a', 0, { createdAt: 'yesterday' })
    const nameless = token('nameless', 'ci-a', 50, { name: undefined })
    const task = { name: undefined, olderThan: days(30), keep: 0 }
    expect(why(planCleanup([undated, nameless], task, NOW))).toEqual([
      ['nameless', 'unreadable name'],
      ['undated', 'unreadable date'],
    ])
    const plan = planCleanup([undated, nameless], { ...task, keepIds: ['undated'] }, NOW)
    expect(why(plan)).toEqual([
      ['nameless', 'unreadable name'],
      ['undated', 'keepIds'],
    ])
  })

  it('lists no token the selection did not take: too young, another name, revoked, or none', () => {
    const tokens = [
      token('young', 'ci-a', 1),
      token('other', 'prod', 90),
      token('gone', 'ci-a', 90, { state: 'revoked' }),
      token('taken', 'ci-a', 90),
    ]
    const keepIds = ['young', 'other', 'gone', '3f2a9c1e-0000-4000-8000-000000000000']
    const task = { name: ['ci-*'], olderThan: days(30), keep: 0 }
    const plan = planCleanup(tokens, { ...task, keepIds }, NOW)
    expect(ids(plan.revoke)).toEqual(['taken'])
    expect(plan.kept).toEqual([])
    // An empty keepIds is no keepIds.
    expect(planCleanup(tokens, { ...task, keepIds: [] }, NOW)).toEqual(
      planCleanup(tokens, task, NOW),
    )
  })
})
