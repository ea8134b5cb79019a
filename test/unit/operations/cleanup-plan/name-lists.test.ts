// planCleanup with several name filters and the keep hint's one case.
import { describe, expect, it } from '@jest/globals'
import { planCleanup } from '../../../../src/operations/cleanup-plan.js'
import { token } from '../../../fixtures/token-api.js'

const NOW = Date.UTC(2026, 10, 22)
const ids = (tokens: { id: string }[]) => tokens.map((t) => t.id)

describe('planCleanup with a name list', () => {
  const tokens = [
    token('p7', 'preview-pr-7', 9),
    token('p9-new', 'preview-pr-9', 2),
    token('p9-old', 'preview-pr-9', 8),
    token('p70', 'preview-pr-70', 20),
    token('p7d', 'preview-pr-7-debug', 20),
    token('p8', 'preview-pr-8', 20),
  ]

  it('revokes the union of the lines, exact names only, keep applied per exact name', () => {
    const name = ['preview-pr-7', 'preview-pr-9', 'preview-pr-12']
    const swept = planCleanup(tokens, { name, olderThan: undefined, keep: 0 }, NOW)
    expect(ids(swept.revoke)).toEqual(['p9-new', 'p9-old', 'p7'])
    const kept = planCleanup(tokens, { name, olderThan: undefined, keep: 1 }, NOW)
    expect(ids(kept.revoke)).toEqual(['p9-old'])
    expect(kept.kept.map(({ token }) => token.id)).toEqual(['p9-new', 'p7'])
  })

  it('names keep: 0 only for the only token of a name that a pattern took', () => {
    const withRevoked = [...tokens, token('p8-gone', 'preview-pr-8', 30, { state: 'revoked' })]
    const byPattern = planCleanup(
      withRevoked,
      { name: ['preview-*'], olderThan: undefined, keep: 1 },
      NOW,
    )
    const sole = byPattern.kept.filter((k) => k.soleOfName).map(({ token }) => token.id)
    // preview-pr-9 has two tokens and preview-pr-8 an older revoked one: names in use.
    expect(sole).toEqual(['p7', 'p70', 'p7d'])
    // In a list that mixes them, a name its own line names exactly is a name in use; one
    // only a pattern took may be used once.
    const mixed = planCleanup(
      tokens,
      { name: ['preview-pr-7', 'preview-pr-8*'], olderThan: undefined, keep: 1 },
      NOW,
    )
    expect(mixed.kept).toEqual([
      { token: expect.objectContaining({ id: 'p7' }), why: 'keep' },
      { token: expect.objectContaining({ id: 'p8' }), why: 'keep', soleOfName: true },
    ])
    const exact = planCleanup(
      tokens,
      { name: ['preview-pr-7'], olderThan: undefined, keep: 1 },
      NOW,
    )
    expect(exact.kept).toEqual([{ token: expect.objectContaining({ id: 'p7' }), why: 'keep' }])
  })
})
