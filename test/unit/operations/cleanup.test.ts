import { describe, expect, it } from '@jest/globals'
import type { CleanupTask } from '../../../src/task.js'
import { cleanup } from '../../../src/operations/cleanup.js'
import { cleanupFailure } from '../../../src/wording.js'
import { RequestError } from '../../../src/platform/errors.js'
import { FakeClock } from '../../fixtures/clock.js'
import { recordingRunner } from '../../fixtures/runner.js'
import { FakeTokenApi, token } from '../../fixtures/token-api.js'

const task = (fields: Partial<CleanupTask> = {}): CleanupTask => ({
  operation: 'cleanup',
  name: undefined,
  olderThan: { text: '30d', ms: 30 * 86_400_000 },
  keep: 0,
  dryRun: false,
  concurrency: 4,
  ...fields,
})
const context = () => ({ clock: new FakeClock(Date.UTC(2026, 10, 22)), log: recordingRunner() })
const many = (n: number, daysAgo = 60) =>
  Array.from({ length: n }, (_, i) => token(`t${i}`, `ci-${i}`, daysAgo + i))

describe('cleanup', () => {
  it('revokes the old tokens and leaves the new ones', async () => {
    const api = new FakeTokenApi([token('old', 'ci', 40), token('new', 'ci', 2)])
    const result = await cleanup(api, task(), context())
    expect(api.calls).toEqual(['list', 'revoke old'])
    expect(result.revoked.map((t) => [t.id, t.state])).toEqual([['old', 'revoked']])
    expect(result.notRevoked).toEqual([])
    expect(cleanupFailure(result)).toBeUndefined()
  })

  it('with dryRun revokes nothing and returns the same plan', async () => {
    const api = new FakeTokenApi([token('old', 'ci', 40), token('new', 'ci', 2)])
    const result = await cleanup(api, task({ dryRun: true }), context())
    expect(api.calls).toEqual(['list'])
    expect(result.revoked.map((t) => [t.id, t.state])).toEqual([['old', 'active']])
  })

  it('warns about a token whose createdAt cannot be read', async () => {
    const api = new FakeTokenApi([token('odd', 'ci', 0, { createdAt: 'yesterday' })])
    const ctx = context()
    const result = await cleanup(api, task(), ctx)
    expect(result.revoked).toEqual([])
    expect(ctx.log.lines).toEqual([
      `warning: Token 'ci' (odd) has a createdAt that cannot be read ("yesterday"): its age is unknown, so it is not revoked.`,
    ])
  })

  it('looks refused revokes up in one list shared by the batch', async () => {
    const api = new FakeTokenApi(many(4))
    // Revoked by someone else after the cleanup listed them: the platform refuses (409).
    api.afterNextList = () => {
      for (const t of api.tokens) if (t.id === 't1' || t.id === 't2') t.state = 'revoked'
    }
    const result = await cleanup(api, task(), context())
    expect(result.revoked.map((t) => [t.id, t.state])).toEqual(
      ['t0', 't1', 't2', 't3'].map((id) => [id, 'revoked']),
    )
    expect(result.notRevoked).toEqual([])
    // The first list plans; one more, shared, answers both refusals.
    expect(api.calls.filter((call) => call === 'list')).toHaveLength(2)
  })

  it('reports a refused token that the shared list no longer holds as unknown', async () => {
    const api = new FakeTokenApi(many(2))
    api.afterNextList = () => {
      api.tokens = api.tokens.filter((t) => t.id !== 't1')
    }
    const result = await cleanup(api, task(), context())
    expect(result.revoked.map((t) => t.id)).toEqual(['t0'])
    expect(result.notRevoked.map((n) => [n.token.id, n.reason])).toEqual([
      ['t1', 'no token with id t1 exists in the project'],
    ])
  })

  it('revokes concurrency tokens at a time', async () => {
    const api = new FakeTokenApi(many(20))
    const result = await cleanup(api, task({ concurrency: 5 }), context())
    expect(result.revoked).toHaveLength(20)
    expect(api.maxInFlight).toBe(5)
  })

  it('goes on past a token it cannot revoke, and names each one with why', async () => {
    const api = new FakeTokenApi(many(6))
    api.refusals.set(
      't2',
      new RequestError(
        'POST /api/tokens/t2/revoke answered 403 Forbidden: not your mediator.',
        403,
      ),
    )
    api.refusals.set(
      't4',
      new RequestError(
        'POST /api/tokens/t4/revoke answered 500 Internal Server Error (attempt 4 of 4).',
        500,
      ),
    )
    const result = await cleanup(api, task(), context())
    expect(result.revoked.map((t) => t.id)).toEqual(['t0', 't1', 't3', 't5'])
    expect(result.notRevoked.map((n) => n.token.id)).toEqual(['t2', 't4'])
    expect(cleanupFailure(result)).toBe(
      "2 of 6 tokens were not revoked (the other 4 were): 'ci-2' (t2): POST /api/tokens/t2/revoke answered 403 Forbidden: not your mediator. " +
        "'ci-4' (t4): POST /api/tokens/t4/revoke answered 500 Internal Server Error (attempt 4 of 4).",
    )
  })

  it('names the first five failures in the message and points at the summary for the rest', async () => {
    const api = new FakeTokenApi(many(8))
    for (let i = 0; i < 8; i++) api.refusals.set(`t${i}`, new RequestError('denied.', 403))
    const result = await cleanup(api, task(), context())
    expect(cleanupFailure(result)).toMatch(
      /^8 of 8 tokens were not revoked \(the other 0 were\): .* And 3 more: each has a warning above, and the job summary lists them\.$/,
    )
  })

  it('slows down under rate-limiting and still revokes every token', async () => {
    const api = new FakeTokenApi(many(40))
    api.throttles = 12
    const ctx = context()
    const result = await cleanup(api, task({ concurrency: 8 }), ctx)
    expect(result.revoked).toHaveLength(40)
    expect(result.notRevoked).toEqual([])
    expect(ctx.log.lines).toContain(
      'info: The platform is rate-limiting: 4 requests in flight instead of 8.',
    )
  })

  it('gives up on a token throttled round after round, without losing the others', async () => {
    const api = new FakeTokenApi(many(2))
    api.throttles = 1000
    const result = await cleanup(api, task({ concurrency: 1 }), context())
    expect(result.revoked).toEqual([])
    expect(result.notRevoked.map((n) => n.token.id).sort()).toEqual(['t0', 't1'])
  })
})
