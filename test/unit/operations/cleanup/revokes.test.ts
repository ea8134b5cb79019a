// cleanup: the plan carried out, refusals settled, throttled revokes sent again, and what
// fails the step (timeout.test.ts: when totalTimeout runs out).
import { describe, expect, it } from '@jest/globals'
import { cleanup } from '../../../../src/operations/cleanup.js'
import { RequestError } from '../../../../src/shared/errors.js'
import { cleanupFailure, stepFailure } from '../../../../src/report/wording.js'
import { Deadline } from '../../../../src/shared/time.js'
import { FakeClock } from '../../../fixtures/clock.js'
import { cleanupTask as task, done } from '../../../fixtures/done.js'
import { recordingRunner } from '../../../fixtures/runner.js'
import {
  FakeTokenApi,
  refused,
  throttled,
  token,
  tooManyRequests,
} from '../../../fixtures/token-api.js'
const context = (totalMs = 0) => {
  const clock = new FakeClock(Date.UTC(2026, 10, 22))
  return { clock, log: recordingRunner(), deadline: new Deadline(clock, totalMs) }
}
const many = (n: number, daysAgo = 60) =>
  Array.from({ length: n }, (_, i) => token(`t${i}`, `ci-${i}`, daysAgo + i))
/** The 409 the platform gives a revoke of a token revoked already, as the client throws it unsettled. */
const conflict = () => refused(409, 'answered 409 Conflict.')

describe('cleanup', () => {
  it('revokes the old tokens and leaves the new ones', async () => {
    const api = new FakeTokenApi([token('old', 'ci', 40), token('new', 'ci', 2)])
    const result = await cleanup(api, task(), context())
    expect(api.calls).toEqual(['list', 'revoke old'])
    expect(result.revoked.map((t) => [t.id, t.state])).toEqual([['old', 'revoked']])
    expect(result.notRevoked).toEqual([])
    expect(cleanupFailure(result)).toBeUndefined()
  })

  describe("ages on the platform's clock", () => {
    const HOUR = 3_600_000
    // Tokens 1 and 6 hours old, and 3 days old, by the platform's clock.
    const tokens = () => [
      token('h1', 'a', 0, { createdAt: new Date(Date.UTC(2026, 10, 22) - HOUR).toISOString() }),
      token('h6', 'b', 0, { createdAt: new Date(Date.UTC(2026, 10, 22) - 6 * HOUR).toISOString() }),
      token('d3', 'c', 3),
    ]

    it.each([
      ['2 days ahead of', -2 * 86_400_000],
      ['2 days behind', 2 * 86_400_000],
    ])(
      'with the runner %s the platform, olderThan 1d takes what is a day old on the platform',
      async (_, offset) => {
        const api = new FakeTokenApi(tokens())
        const ctx = context()
        // The runner's clock is off by `offset` from the platform's, which dated the tokens.
        ctx.clock.time = Date.UTC(2026, 10, 22) - offset
        api.platformOffsetMs = offset
        const result = await cleanup(api, task({ olderThan: { text: '1d', ms: 86_400_000 } }), ctx)
        expect(result.revoked.map((t) => t.id)).toEqual(['d3'])
        expect(result.now).toBe(Date.UTC(2026, 10, 22))
        expect(result.ages).toEqual({ by: 'platform', skewMs: offset })
      },
    )

    it("without a Date header, measures on the runner's clock and says so in the result", async () => {
      const api = new FakeTokenApi(tokens())
      api.platformOffsetMs = undefined
      const ctx = context()
      ctx.clock.time = Date.UTC(2026, 10, 22) + 2 * 86_400_000
      const result = await cleanup(api, task({ olderThan: { text: '1d', ms: 86_400_000 } }), ctx)
      // Two days ahead, with nothing to tell it: all three look over a day old.
      expect(result.revoked.map((t) => t.id)).toEqual(['h1', 'h6', 'd3'])
      expect(result.ages).toEqual({ by: 'runner' })
    })
  })

  it('with dryRun revokes nothing and returns the same plan', async () => {
    const api = new FakeTokenApi([token('old', 'ci', 40), token('new', 'ci', 2)])
    const result = await cleanup(api, task({ dryRun: true }), context())
    expect(api.calls).toEqual(['list'])
    expect(result.revoked.map((t) => [t.id, t.state])).toEqual([['old', 'active']])
  })

  it('keeps a token whose createdAt cannot be read, saying why', async () => {
    const api = new FakeTokenApi([token('odd', 'ci', 0, { createdAt: 'yesterday' })])
    const ctx = context()
    const result = await cleanup(api, task(), ctx)
    expect(result.revoked).toEqual([])
    expect(result.kept).toEqual([
      { token: expect.objectContaining({ id: 'odd' }), why: 'unreadable date' },
    ])
    // The operation returns data; report.ts puts it into words.
    expect(ctx.log.lines).toEqual([])
  })

  describe('two cleanups at once (case 5)', () => {
    it('counts a token someone else revoked meanwhile as revoked by them, settled by one later list', async () => {
      const api = new FakeTokenApi(many(4))
      // Revoked by someone else after the cleanup listed them: the platform refuses (409).
      api.afterNextList = () => {
        for (const t of api.tokens) if (t.id === 't1' || t.id === 't2') t.state = 'revoked'
      }
      api.revokes.set('t1', conflict())
      api.revokes.set('t2', conflict())
      const asked = task()
      const result = await cleanup(api, asked, context())
      expect(result.revoked.map((t) => t.id)).toEqual(['t0', 't3'])
      expect(result.revokedElsewhere.map((t) => [t.id, t.state])).toEqual([
        ['t1', 'revoked'],
        ['t2', 'revoked'],
      ])
      expect(result.notRevoked).toEqual([])
      expect(stepFailure(done(result, asked))).toBeUndefined()
      // The first list plans; one more, after the last revoke, settles both refusals.
      expect(api.calls.filter((call) => call === 'list')).toHaveLength(2)
      expect(api.calls.at(-1)).toBe('list')
      // Each revoke asked the client to leave a refusal unsettled, for that one list.
      expect(api.revokesSent.map((sent) => sent.options)).toEqual(
        Array.from({ length: 4 }, () => ({ pooled: { attemptsUsed: 0 }, settle: 'later' })),
      )
    })

    it('counts a refused revoke an earlier attempt of which may have gone through as its own', async () => {
      const api = new FakeTokenApi(many(2))
      api.afterNextList = () => {
        const t1 = api.tokens.find((t) => t.id === 't1')
        if (t1) t1.state = 'revoked'
      }
      api.revokes.set('t1', refused(409, 'answered 409 Conflict.', true))
      const result = await cleanup(api, task(), context())
      expect(result.revoked.map((t) => [t.id, t.state])).toEqual([
        ['t0', 'revoked'],
        ['t1', 'revoked'],
      ])
      expect(result.revokedElsewhere).toEqual([])
      expect(result.notRevoked).toEqual([])
    })

    it('settles a refusal that came after another with a list fetched after it too', async () => {
      const api = new FakeTokenApi(many(4))
      api.afterNextList = () => {
        const first = api.tokens.find((t) => t.id === 't1')
        if (first) first.state = 'revoked'
      }
      // The other job reaches t3 only while this one revokes t2: after t1 was refused.
      api.hold = (id) => {
        const later = api.tokens.find((t) => t.id === 't3')
        if (id === 't2' && later) later.state = 'revoked'
        return Promise.resolve()
      }
      api.revokes.set('t1', conflict())
      api.revokes.set('t3', conflict())
      const result = await cleanup(api, task({ concurrency: 1 }), context())
      expect(result.revokedElsewhere.map((t) => t.id)).toEqual(['t1', 't3'])
      expect(result.notRevoked).toEqual([])
    })

    it.each([
      ['400', refused(400, 'answered 400 Bad Request.')],
      ['404', refused(404, 'answered 404 Not Found.')],
    ])('settles a %s the same way: any unsettled refusal is looked at', async (_, refusal) => {
      const api = new FakeTokenApi(many(2))
      api.afterNextList = () => {
        const t1 = api.tokens.find((t) => t.id === 't1')
        if (t1) t1.state = 'revoked'
      }
      api.revokes.set('t1', refusal)
      const result = await cleanup(api, task(), context())
      expect(result.revokedElsewhere.map((t) => t.id)).toEqual(['t1'])
    })
  })

  it('reports a refused token that the later list no longer holds as unknown', async () => {
    const api = new FakeTokenApi(many(2))
    api.afterNextList = () => {
      api.tokens = api.tokens.filter((t) => t.id !== 't1')
    }
    api.revokes.set('t1', refused(404, 'answered 404 Not Found.'))
    const result = await cleanup(api, task(), context())
    expect(result.revoked.map((t) => t.id)).toEqual(['t0'])
    expect(result.notRevoked.map((n) => [n.token.id, n.reason])).toEqual([
      ['t1', 'no token with id t1 exists in the project: answered 404 Not Found.'],
    ])
  })

  it('keeps each refusal as the reason when the settling list fails too, saying so', async () => {
    const api = new FakeTokenApi(many(2))
    api.revokes.set('t1', refused(403, 'POST y answered 403 Forbidden.'))
    const listTokens = api.listTokens.bind(api)
    let lists = 0
    api.listTokens = () =>
      ++lists === 1 ? listTokens() : Promise.reject(new RequestError('GET answered 503.', 503))
    const result = await cleanup(api, task(), context())
    expect(result.revoked.map((t) => t.id)).toEqual(['t0'])
    expect(result.notRevoked.map((n) => [n.token.id, n.reason])).toEqual([
      [
        't1',
        'POST y answered 403 Forbidden. Whether it was revoked already could not be told: listing the tokens failed too: GET answered 503.',
      ],
    ])
    expect(lists).toBe(2)
  })

  it('revokes concurrency tokens at a time', async () => {
    const api = new FakeTokenApi(many(20))
    const result = await cleanup(api, task({ concurrency: 5 }), context())
    expect(result.revoked).toHaveLength(20)
    expect(api.maxInFlight).toBe(5)
  })

  it('goes on past a token it cannot revoke, and names each one with why', async () => {
    const api = new FakeTokenApi(many(6))
    // A refusal the list settles (t2 is still active: it stands), and a server error.
    api.revokes.set(
      't2',
      refused(403, 'POST /api/tokens/t2/revoke answered 403 Forbidden: not your mediator.'),
    )
    api.revokes.set(
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
    for (let i = 0; i < 8; i++) api.revokes.set(`t${i}`, refused(403, 'denied.'))
    const result = await cleanup(api, task(), context())
    expect(cleanupFailure(result)).toMatch(
      /^8 of 8 tokens were not revoked \(the other 0 were\): .* And 3 more: each has a warning above, and the job summary lists them\.$/,
    )
  })

  it('hands each throttled revoke back to the pool, which sends it again: every token revoked', async () => {
    const api = new FakeTokenApi(many(40))
    // The next 12 sends are turned away, each told it has used 1 attempt.
    api.nextRevokes.push(...Array.from({ length: 12 }, () => throttled(1)))
    const ctx = context()
    const result = await cleanup(api, task({ concurrency: 8 }), ctx)
    expect(result.revoked).toHaveLength(40)
    expect(result.notRevoked).toEqual([])
    expect(api.calls.filter((call) => call.startsWith('revoke'))).toHaveLength(52)
    // Each sent again with the attempts its 429 said it had used.
    const used = api.revokesSent.map((sent) => sent.options.pooled?.attemptsUsed)
    expect(used.filter((n) => n === 0)).toHaveLength(40)
    expect(used.filter((n) => n === 1)).toHaveLength(12)
  })

  it('sends a revoke throttled on its last attempt no more, without losing the others', async () => {
    const api = new FakeTokenApi(many(3))
    // retries: 0, one attempt: the client gives a 429 as a final failure, not handed back.
    api.nextRevokes.push(tooManyRequests(), tooManyRequests())
    const result = await cleanup(api, task({ concurrency: 1 }), context())
    // Each token once: the client's retries are the whole attempt budget of a request.
    expect(api.calls.filter((call) => call.startsWith('revoke')).sort()).toEqual([
      'revoke t0',
      'revoke t1',
      'revoke t2',
    ])
    expect(result.revoked.map((t) => t.id)).toEqual(['t2'])
    expect(result.notRevoked.map((n) => [n.token.id, n.reason])).toEqual([
      ['t0', 'POST /revoke answered 429 Too Many Requests.'],
      ['t1', 'POST /revoke answered 429 Too Many Requests.'],
    ])
  })
})
