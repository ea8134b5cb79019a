import { describe, expect, it } from '@jest/globals'
import type { FakePlatform } from '../support/fake-platform.mjs'
import { expectNoLeaks, runAgainst, useFakePlatform } from './helpers.js'

const platform = useFakePlatform()
const DAY = 86_400_000

/** Seeds tokens out of date order, as a platform may return them. */
function seed(p: FakePlatform) {
  return {
    euOld: p.seed({ name: 'ci-eu', ageMs: 20 * DAY }),
    prod: p.seed({ name: 'prod', ageMs: 1 * DAY }),
    usRevoked: p.seed({ name: 'ci-us', ageMs: 30 * DAY, state: 'revoked' }),
    euNew: p.seed({ name: 'ci-eu', ageMs: 2 * DAY }),
    star: p.seed({ name: 'ci-*', ageMs: 3 * DAY }),
  }
}

function ids(tokensOutput: string | undefined): string[] {
  return (JSON.parse(tokensOutput ?? '[]') as { id: string }[]).map((t) => t.id)
}

describe('list (the committed bundle on Node 24)', () => {
  it('outputs every record newest first with count, never a value, in two requests', async () => {
    const t = seed(platform())
    const run = await runAgainst(platform(), { operation: 'list' })

    expect(run.exitCode).toBe(0)
    expect(ids(run.outputs.tokens)).toEqual([
      t.prod.id,
      t.euNew.id,
      t.star.id,
      t.euOld.id,
      t.usRevoked.id,
    ])
    expect(run.outputs.count).toBe('5')
    expect(run.outputs.tokens).not.toContain('tokenValue')
    expect(platform().requestLines()).toEqual([
      'POST /idp/identity/resources/auth/v2/api-token',
      'GET /api/tokens',
    ])
  })

  it('masks the value of every active record it receives', async () => {
    seed(platform())
    const run = await runAgainst(platform(), { operation: 'list' })
    const values = [...platform().tokens.values()].flatMap((t) =>
      t.tokenValue ? [t.tokenValue] : [],
    )
    expect(values).toHaveLength(4)
    expect(run.masked).toEqual(expect.arrayContaining(values))
    expectNoLeaks(run, platform().secrets())
  })

  it('filters by state', async () => {
    const t = seed(platform())
    const active = await runAgainst(platform(), { operation: 'list', state: 'active' })
    expect(ids(active.outputs.tokens)).toEqual([t.prod.id, t.euNew.id, t.star.id, t.euOld.id])
    const revoked = await runAgainst(platform(), { operation: 'list', state: 'revoked' })
    expect(ids(revoked.outputs.tokens)).toEqual([t.usRevoked.id])
    expect(revoked.outputs.count).toBe('1')
  })

  it('filters by exact name and by * pattern', async () => {
    const t = seed(platform())
    const exact = await runAgainst(platform(), { operation: 'list', name: 'ci-eu' })
    expect(ids(exact.outputs.tokens)).toEqual([t.euNew.id, t.euOld.id])
    const pattern = await runAgainst(platform(), {
      operation: 'list',
      name: 'ci-*',
      state: 'active',
    })
    expect(ids(pattern.outputs.tokens)).toEqual([t.euNew.id, t.star.id, t.euOld.id])
  })

  it('outputs an empty list when nothing matches', async () => {
    seed(platform())
    const run = await runAgainst(platform(), { operation: 'list', name: 'nothing-*' })
    expect(run.exitCode).toBe(0)
    expect(run.outputs).toEqual({ tokens: '[]', count: '0', tokensFile: expect.any(String) })
    expect(run.summary).toContain('0 of 5 tokens match name <code>nothing-&#42;</code>.')
    // The project of the records listed, though none matched: a matrix over projects tells them apart.
    expect(run.summary).toMatch(/^### Gateway tokens: project <code>[0-9a-f-]{36}<\/code>\n/)
  })

  it('summarises the matches in a table', async () => {
    const t = seed(platform())
    const run = await runAgainst(platform(), { operation: 'list', name: 'ci-eu' })
    expect(run.summary).toContain('2 of 5 tokens match name <code>ci-eu</code>.')
    expect(run.summary).toContain('| Name | Id | State | Created | Created by | Revoked |')
    expect(run.summary).toContain(`| ci-eu | <code>${t.euNew.id}</code> | active |`)
    expect(run.summary).not.toContain('prod')
  })

  it('keeps the summary under 128 KiB for 5,000 tokens, with the outputs complete', async () => {
    for (let i = 0; i < 5000; i++) platform().seed({ name: `mediator-${i}`, ageMs: i * 60_000 })
    const run = await runAgainst(platform(), { operation: 'list' })
    expect(run.exitCode).toBe(0)
    expect(run.outputs.count).toBe('5000')
    // Over 1 MiB: tokens is the empty string, the records are in tokensFile (token-files.test.ts).
    expect(run.outputs.tokens).toBe('')
    expect(Buffer.byteLength(run.summary)).toBeLessThan(128 * 1024)
    const shown = run.summary.split('\n').filter((line) => line.startsWith('| mediator-')).length
    expect(run.summary).toContain(`${5000 - shown} more not shown`)
  })
})
