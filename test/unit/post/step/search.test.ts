// The end's search for a lost create's token: while the create may land, while the list fails with what may pass, within its deadline.
import { describe, expect, it } from '@jest/globals'
import { Deadline } from '../../../../src/shared/time.js'
import { DeadlineError, RequestError } from '../../../../src/shared/errors.js'
import { searchCreated } from '../../../../src/post/step.js'
import { FakeClock } from '../../../fixtures/clock.js'
import { recordingRunner } from '../../../fixtures/runner.js'
import { FakeTokenApi, token } from '../../../fixtures/token-api.js'

const LANDS_WITHIN_MS = 60_000

/** A create of 'pr-7' sent `agoMs` before the fake clock's now, its answer lost. */
function setup(agoMs: number, deadlineMs = 120_000, id?: string) {
  const clock = new FakeClock()
  const facts = { name: 'pr-7', sentAt: clock.now() - agoMs, ...(id !== undefined && { id }) }
  const context = { clock, deadline: new Deadline(clock, deadlineMs), log: recordingRunner() }
  return { clock, facts, context }
}
/** A token of 'pr-7' created at `at` (ms since the epoch). */
const made = (id: string, at: number) =>
  token(id, 'pr-7', 0, { createdAt: new Date(at).toISOString() })

describe('searchCreated', () => {
  it('looks again every 2 s while the create may still land, and finds it when it does', async () => {
    const { clock, facts, context } = setup(1_000)
    const api = new FakeTokenApi()
    let lists = 0
    const list = api.listTokens.bind(api)
    api.listTokens = () => {
      if (++lists === 3) api.tokens.push(made('late', facts.sentAt + 500))
      return list()
    }
    const found = await searchCreated(api, facts, context)
    expect(found).toEqual({ found: 'one', token: expect.objectContaining({ id: 'late' }) })
    expect(clock.sleeps).toEqual([2_000, 2_000])
  })

  it('stops a minute after the create was sent: it no longer lands', async () => {
    const { clock, facts, context } = setup(LANDS_WITHIN_MS - 3_000)
    const found = await searchCreated(new FakeTokenApi(), facts, context)
    expect(found).toEqual({ found: 'none' })
    expect(clock.sleeps).toEqual([2_000])
    expect(context.log.lines).toEqual([
      "info: No token named 'pr-7' in the list yet; a create can land late: looking again in 2 s.",
    ])
    const { clock: later, facts: old, context: after } = setup(LANDS_WITHIN_MS)
    await searchCreated(new FakeTokenApi(), old, after)
    expect(later.sleeps).toEqual([])
  })

  it('looks again while a create sent again may land: a minute after it was last in flight', async () => {
    const { clock, facts, context } = setup(100_000)
    const resent = { ...facts, lastInFlightAt: facts.sentAt + 90_000 }
    const api = new FakeTokenApi()
    let lists = 0
    const list = api.listTokens.bind(api)
    api.listTokens = () => {
      if (++lists === 2) api.tokens.push(made('resent', resent.lastInFlightAt + 1_000))
      return list()
    }
    const found = await searchCreated(api, resent, context)
    expect(found).toEqual({ found: 'one', token: expect.objectContaining({ id: 'resent' }) })
    expect(clock.sleeps).toEqual([2_000])
  })

  it('ends with its deadline before the create could land', async () => {
    const { clock, facts, context } = setup(0, 2_000)
    expect(await searchCreated(new FakeTokenApi(), facts, context)).toEqual({
      found: 'none',
    })
    expect(clock.sleeps).toEqual([])
  })

  it('leaves out the token the step made when it sent the create again', async () => {
    const { facts, context } = setup(LANDS_WITHIN_MS, 120_000, 'second')
    const api = new FakeTokenApi([
      made('second', facts.sentAt + 3_000),
      made('first', facts.sentAt + 500),
    ])
    const found = await searchCreated(api, facts, context)
    expect(found).toEqual({ found: 'one', token: expect.objectContaining({ id: 'first' }) })
  })

  it('takes no token made after the create could have landed (a minute after it was sent)', async () => {
    const { facts, context } = setup(3 * 3_600_000)
    const api = new FakeTokenApi([made('later-job', facts.sentAt + 60_000 + 60_000 + 3_000)])
    expect(await searchCreated(api, facts, context)).toEqual({ found: 'none' })
  })

  describe('a list that fails', () => {
    /** A platform whose next lists fail with `errors`, one each, then answer. */
    const failing = (errors: Error[]) => Object.assign(new FakeTokenApi(), { nextLists: errors })

    it('is read again 2 s later when what failed may pass (no answer, 503, 429): each list is one call, which retried it', async () => {
      const { clock, facts, context } = setup(LANDS_WITHIN_MS)
      const api = failing([
        new RequestError('GET answered 503.', 503, true),
        new RequestError('GET got no answer: connection reset (ECONNRESET).', undefined, true),
        new RequestError('GET answered 429.', 429, true),
      ])
      expect(await searchCreated(api, facts, context)).toEqual({ found: 'none' })
      expect(clock.sleeps).toEqual([2_000, 2_000, 2_000])
      expect(context.log.lines[0]).toBe(
        'info: Listing the tokens failed: GET answered 503. Looking again in 2 s.',
      )
    })

    it('a list that fails after one answered ends in none: the create was looked for', async () => {
      const { clock, facts, context } = setup(LANDS_WITHIN_MS - 3_000)
      const api = new FakeTokenApi()
      api.afterNextList = () => api.nextLists.push(new RequestError('GET answered 503.', 503, true))
      expect(await searchCreated(api, facts, context)).toEqual({ found: 'none' })
      expect(clock.sleeps).toEqual([2_000])
    })

    it.each([
      ['a refusal', new RequestError('GET answered 403.', 403)],
      ['a 404 on the list', new RequestError('GET answered 404.', 404)],
      ['an answer that is not JSON', new RequestError('GET answered 200 with a web page.', 200)],
      [
        'a certificate the runner does not trust',
        new RequestError('GET got no answer: certificate not trusted.'),
      ],
      ['its deadline', new DeadlineError('the post step’s limit (120 s) ran out', 503)],
      ['a bug', new TypeError('x is undefined')],
    ])('fails at once on %s: waiting would not change it', async (_, error) => {
      const { clock, facts, context } = setup(LANDS_WITHIN_MS)
      await expect(searchCreated(failing([error]), facts, context)).rejects.toBe(error)
      expect(clock.sleeps).toEqual([])
    })

    it('fails with the last failure when no list answered before its deadline', async () => {
      const { clock, facts, context } = setup(LANDS_WITHIN_MS, 5_000)
      const api = failing([
        ...Array.from({ length: 2 }, () => new RequestError('GET answered 502.', 502, true)),
        new RequestError('GET answered 504.', 504, true),
      ])
      await expect(searchCreated(api, facts, context)).rejects.toThrow('answered 504')
      expect(clock.sleeps).toEqual([2_000, 2_000])
    })
  })
})
