// cleanup under totalTimeout: no revoke starts once the budget is spent, those in flight
// finish, and what is left is reported (and fails the step).
import { describe, expect, it } from '@jest/globals'
import { cleanup } from '../../../../src/operations/cleanup.js'
import { DeadlineError } from '../../../../src/shared/errors.js'
import { stepFailure } from '../../../../src/report/wording.js'
import { Deadline } from '../../../../src/shared/time.js'
import { FakeClock } from '../../../fixtures/clock.js'
import { cleanupTask as task, done } from '../../../fixtures/done.js'
import { recordingRunner } from '../../../fixtures/runner.js'
import { FakeTokenApi, throttled, token } from '../../../fixtures/token-api.js'

const context = (totalMs = 0) => {
  const clock = new FakeClock(Date.UTC(2026, 10, 22))
  return { clock, log: recordingRunner(), deadline: new Deadline(clock, totalMs) }
}
const many = (n: number, daysAgo = 60) =>
  Array.from({ length: n }, (_, i) => token(`t${i}`, `ci-${i}`, daysAgo + i))

/** `n` old tokens whose revokes take `revokeMs` each on the context's clock (totalTimeout `totalMs`). */
function slowRevokes(n: number, revokeMs: number, totalMs: number) {
  const api = new FakeTokenApi(many(n))
  const ctx = context(totalMs)
  api.clock = ctx.clock
  api.revokeMs = revokeMs
  return { api, ctx }
}

describe('cleanup when totalTimeout runs out', () => {
  it('starts no more revokes, finishes those in flight, and reports what is left', async () => {
    const { api, ctx } = slowRevokes(10, 1_000, 3_500)
    const asked = task({ concurrency: 2 })
    const result = await cleanup(api, asked, ctx)
    const sent = api.calls.filter((call) => call.startsWith('revoke'))
    expect(sent.length).toBeGreaterThan(0)
    expect(sent.length).toBeLessThan(10)
    expect(result.revoked).toHaveLength(sent.length)
    expect(result.left).toHaveLength(10 - sent.length)
    expect(result.notRevoked).toEqual([])
    expect(stepFailure(done(result, asked))).toBe(
      `totalTimeout (4 s) ran out: ${sent.length} tokens revoked, ${10 - sent.length} left active; run the cleanup again to revoke them.`,
    )
  })

  it('does not cut a cleanup with time to spare', async () => {
    const { api, ctx } = slowRevokes(10, 1_000, 60_000)
    const asked = task({ concurrency: 2 })
    const result = await cleanup(api, asked, ctx)
    expect(result.revoked).toHaveLength(10)
    expect(result.left).toEqual([])
    expect(stepFailure(done(result, asked))).toBeUndefined()
  })

  it('counts a revoke cut short by the deadline as left, not as refused', async () => {
    const api = new FakeTokenApi(many(2))
    api.revokes.set('t0', new DeadlineError('totalTimeout (1 s) ran out before POST x was sent.'))
    const result = await cleanup(api, task(), context())
    expect(result.left.map((t) => t.id)).toEqual(['t0'])
    expect(result.revoked.map((t) => t.id)).toEqual(['t1'])
  })

  describe('a revoke in flight when the time ran out is settled by one more list, never reported as not revoked', () => {
    const cutOff = new DeadlineError(
      'totalTimeout (1 s) ran out while POST x waited for an answer. It may have taken effect all the same.',
      undefined,
      true,
    )

    it('counts it revoked when the list shows it revoked: the platform carried it out', async () => {
      const api = new FakeTokenApi(many(2))
      // The platform revoked t0 while its answer was cut off.
      api.hold = (id) => {
        if (id === 't0') Object.assign(api.tokens[0] ?? {}, { state: 'revoked' })
        return Promise.resolve()
      }
      api.revokes.set('t0', cutOff)
      const result = await cleanup(api, task(), context())
      expect(api.calls).toEqual(['list', 'revoke t0', 'revoke t1', 'list'])
      expect(result.revoked.map((t) => t.id)).toEqual(['t0', 't1'])
      expect([result.left, result.notRevoked, result.unknown, result.revokedElsewhere]).toEqual([
        [],
        [],
        [],
        [],
      ])
    })

    it('counts it left when the list shows it still active', async () => {
      const api = new FakeTokenApi(many(2))
      api.revokes.set('t0', cutOff)
      const result = await cleanup(api, task(), context())
      expect(result.left.map((t) => t.id)).toEqual(['t0'])
      expect([result.notRevoked, result.unknown]).toEqual([[], []])
    })

    it('reports it unknown when the list shows it in a state the action does not know, or not at all', async () => {
      for (const [state, listed] of [
        ['revoking', true],
        ['active', false],
      ] as const) {
        const api = new FakeTokenApi(many(2))
        api.revokes.set('t0', cutOff)
        api.hold = (id) => {
          if (id !== 't0') return Promise.resolve()
          if (listed) Object.assign(api.tokens[0] ?? {}, { state })
          else api.tokens.splice(0, 1)
          return Promise.resolve()
        }
        const result = await cleanup(api, task(), context())
        expect(result.unknown.map((t) => t.id)).toEqual(['t0'])
        expect([result.left, result.notRevoked, result.revoked.map((t) => t.id)]).toEqual([
          [],
          [],
          ['t1'],
        ])
      }
    })

    it('reports it unknown when that list fails: it may have been revoked', async () => {
      const api = new FakeTokenApi(many(2))
      api.revokes.set('t0', cutOff)
      // The first list is the cleanup's own, taken as it starts; the second one fails.
      const running = cleanup(api, task(), context())
      api.nextLists.push(new DeadlineError('totalTimeout (1 s) ran out before GET x was sent.'))
      const result = await running
      expect(result.unknown.map((t) => t.id)).toEqual(['t0'])
      expect(result.revoked.map((t) => t.id)).toEqual(['t1'])
      expect([result.left, result.notRevoked]).toEqual([[], []])
    })

    it('gives that list 5 s past totalTimeout, and none after a cancel', async () => {
      const ctx = context(1_000)
      const api = new FakeTokenApi(many(1))
      // In flight when the second runs out.
      api.hold = () => {
        ctx.clock.advance(1_000)
        return Promise.resolve()
      }
      api.revokes.set('t0', cutOff)
      const remaining: number[] = []
      api.afterNextList = () => undefined
      const listTokens = api.listTokens.bind(api)
      api.listTokens = () => {
        remaining.push(ctx.deadline.remaining())
        return listTokens()
      }
      await cleanup(api, task(), ctx)
      expect(remaining).toEqual([1_000, 5_000])
      const cancelled = context(1_000)
      cancelled.deadline.cancel('SIGINT')
      cancelled.deadline.grace(5_000)
      expect(cancelled.deadline.remaining()).toBe(0)
    })
  })

  it('does not leave a revoke whose 429 asks for a wait past totalTimeout: it is not revoked, saying what the 429 said', async () => {
    const { api, ctx } = slowRevokes(2, 800, 1_500)
    // t0 is throttled at 0.8 s and asked to wait 1 s: past the end at 1.5 s.
    api.nextRevokes.push(throttled(1, 1000))
    const asked = task({ concurrency: 1 })
    const result = await cleanup(api, asked, ctx)
    expect(api.calls.filter((call) => call === 'revoke t0')).toHaveLength(1)
    expect(result.notRevoked.map(({ token, reason }) => [token.id, reason])).toEqual([
      [
        't0',
        'POST /revoke answered 429 Too Many Requests. Its wait ends after totalTimeout (2 s) does: run the cleanup again later.',
      ],
    ])
    expect(result.revoked.map((t) => t.id)).toEqual(['t1'])
    expect(result.left).toEqual([])
    // Not "totalTimeout ran out": it had not.
    expect(stepFailure(done(result, asked))).not.toMatch(/ran out/)
  })

  it('leaves a revoke whose 429 comes after totalTimeout ran out, as it leaves those never sent: the time is said once, not as its wait', async () => {
    const { api, ctx } = slowRevokes(2, 1_600, 1_500)
    // t0 is throttled at 1.6 s, after the end at 1.5 s: no wait of its own is past the end.
    api.nextRevokes.push(throttled(1, 1000))
    const asked = task({ concurrency: 1 })
    const result = await cleanup(api, asked, ctx)
    expect(result.notRevoked).toEqual([])
    expect(result.left.map((t) => t.id).sort()).toEqual(['t0', 't1'])
    const failure = stepFailure(done(result, asked)) ?? ''
    expect(failure).toMatch(/^totalTimeout \(2 s\) ran out: 0 tokens revoked, 2 left active/)
    expect(failure).not.toMatch(/wait ends/)
  })

  it('after a cancel, leaves a throttled revoke as it leaves those never sent: the cancel is said once, not as its wait', async () => {
    const { api, ctx } = slowRevokes(2, 800, 60_000)
    api.nextRevokes.push(throttled(1, 1000))
    api.hold = (id) => {
      if (id === 't0') ctx.deadline.cancel('SIGINT')
      return Promise.resolve()
    }
    const asked = task({ concurrency: 1 })
    const result = await cleanup(api, asked, ctx)
    expect(result.notRevoked).toEqual([])
    expect(result.left.map((t) => t.id).sort()).toEqual(['t0', 't1'])
    const failure = stepFailure(done(result, asked)) ?? ''
    expect(failure.match(/cancelled/g)).toHaveLength(1)
    expect(failure).not.toMatch(/wait ends/)
  })

  it('sends a throttled revoke again after its wait when the budget allows it', async () => {
    const api = new FakeTokenApi(many(2))
    const ctx = context(60_000)
    api.nextRevokes.push(throttled(1, 1000))
    const result = await cleanup(api, task({ concurrency: 1 }), ctx)
    expect(api.calls.filter((call) => call === 'revoke t0')).toHaveLength(2)
    // Sent again after the 1 s Retry-After asked for, counting the attempt it used.
    const t0 = api.revokesSent.filter((sent) => sent.tokenId === 't0')
    expect(t0.map((sent) => sent.options.pooled)).toEqual([
      { attemptsUsed: 0 },
      { attemptsUsed: 1 },
    ])
    expect(ctx.clock.sleeps.reduce((sum, ms) => sum + ms, 0)).toBeGreaterThanOrEqual(1000)
    expect(result.revoked.map((t) => t.id)).toEqual(['t0', 't1'])
  })

  it('starts revokes while time is left and none at or after the end, in plan order', async () => {
    const { api, ctx } = slowRevokes(5, 1_000, 3_000)
    const asked = task({ concurrency: 1 })
    const result = await cleanup(api, asked, ctx)
    // t0 starts at 0 s, t1 at 1 s, t2 at 2 s; at 3 s the budget is spent.
    expect(api.calls).toEqual(['list', 'revoke t0', 'revoke t1', 'revoke t2'])
    expect(result.revoked.map((t) => t.id)).toEqual(['t0', 't1', 't2'])
    expect(result.left.map((t) => t.id)).toEqual(['t3', 't4'])
    expect(stepFailure(done(result, asked))).toBe(
      'totalTimeout (3 s) ran out: 3 tokens revoked, 2 left active; run the cleanup again to revoke them.',
    )
  })

  it('lets the revokes in flight when the budget runs out finish, and counts them revoked', async () => {
    const api = new FakeTokenApi(many(5))
    const ctx = context(10_000)
    const release: (() => void)[] = []
    api.hold = () => new Promise((resolve) => release.push(resolve))
    const asked = task({ concurrency: 2 })
    const running = cleanup(api, asked, ctx)
    await until(() => release.length === 2)
    ctx.clock.advance(10_000) // t0 and t1 are still in flight
    for (const go of release.splice(0)) go()
    const result = await running
    expect(api.calls).toEqual(['list', 'revoke t0', 'revoke t1'])
    expect(result.revoked.map((t) => [t.id, t.state])).toEqual([
      ['t0', 'revoked'],
      ['t1', 'revoked'],
    ])
    expect(result.left.map((t) => t.id)).toEqual(['t2', 't3', 't4'])
    expect(result.notRevoked).toEqual([])
    expect(stepFailure(done(result, asked))).toBe(
      'totalTimeout (10 s) ran out: 2 tokens revoked, 3 left active; run the cleanup again to revoke them.',
    )
  })

  it('with totalTimeout 0 revokes every token, however long it takes', async () => {
    const { api, ctx } = slowRevokes(10, 3_600_000, 0) // an hour each: 10 hours in all, past the largest totalTimeout
    const asked = task({ concurrency: 2 })
    const result = await cleanup(api, asked, ctx)
    expect(result.revoked).toHaveLength(10)
    expect(result.left).toEqual([])
    expect(result.stop).toEqual({ by: 'totalTimeout', totalMs: 0 })
    expect(stepFailure(done(result, asked))).toBeUndefined()
  })
})

/** Lets pending work run until `condition` holds (at most 100 turns), then checks it does. */
async function until(condition: () => boolean): Promise<void> {
  for (let turn = 0; turn < 100 && !condition(); turn++)
    await new Promise((resolve) => setImmediate(resolve))
  expect(condition()).toBe(true)
}
