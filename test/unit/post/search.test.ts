// The post step's search for a lost create's token: while the create may land, while the list fails with what may pass, within its deadline.
import { describe, expect, it } from '@jest/globals'
import { Deadline } from '../../../src/shared/time.js'
import { DeadlineError, RequestError } from '../../../src/shared/errors.js'
import type { CreateFacts } from '../../../src/platform/lost-create.js'
import { searchCreated } from '../../../src/post/search.js'
import { FakeClock } from '../../fixtures/clock.js'
import { recordingRunner } from '../../fixtures/runner.js'
import { FakeTokenApi, token } from '../../fixtures/token-api.js'

const LANDS_WITHIN_MS = 60_000

/** A create of 'pr-7' sent `agoMs` before the fake clock's now, its answer lost. */
function setup(agoMs: number, deadlineMs = 120_000, id?: string) {
  const clock = new FakeClock()
  const facts: CreateFacts = {
    name: 'pr-7',
    sentAt: clock.now() - agoMs,
    written: true,
    refused: false,
    lost: true,
    ...(id === undefined ? {} : { id }),
  }
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
    const found = await searchCreated(api, facts, context, 900_000)
    expect(found).toEqual({ found: 'one', token: expect.objectContaining({ id: 'late' }) })
    expect(clock.sleeps).toEqual([2_000, 2_000])
  })

  it('stops a minute after the create was sent: it no longer lands, and says so', async () => {
    const { clock, facts, context } = setup(LANDS_WITHIN_MS - 3_000)
    const found = await searchCreated(new FakeTokenApi(), facts, context, 900_000)
    expect(found).toEqual({ found: 'none', landed: true })
    expect(clock.sleeps).toEqual([2_000, 1_000])
    const { clock: later, facts: old, context: after } = setup(LANDS_WITHIN_MS)
    await searchCreated(new FakeTokenApi(), old, after, 900_000)
    expect(later.sleeps).toEqual([])
  })

  it('ends with its deadline before the create could land: landing not ruled out', async () => {
    const { clock, facts, context } = setup(0, 2_000)
    expect(await searchCreated(new FakeTokenApi(), facts, context, 900_000)).toEqual({
      found: 'none',
      landed: false,
    })
    expect(clock.sleeps).toEqual([])
  })

  it('leaves out the token the step made when it sent the create again', async () => {
    const { facts, context } = setup(LANDS_WITHIN_MS, 120_000, 'second')
    const api = new FakeTokenApi([
      made('second', facts.sentAt + 3_000),
      made('first', facts.sentAt + 500),
    ])
    const found = await searchCreated(api, facts, context, 900_000)
    expect(found).toEqual({ found: 'one', token: expect.objectContaining({ id: 'first' }) })
  })

  it('takes no token made after the create could have landed (totalTimeout)', async () => {
    const { facts, context } = setup(3 * 3_600_000)
    const api = new FakeTokenApi([made('later-job', facts.sentAt + 60_000 + 60_000 + 3_000)])
    expect(await searchCreated(api, facts, context, 60_000)).toEqual({
      found: 'none',
      landed: true,
    })
  })

  describe('a list that fails', () => {
    const failing = (errors: Error[]) => {
      const api = new FakeTokenApi()
      const list = api.listTokens.bind(api)
      api.listTokens = () => {
        const error = errors.shift()
        return error === undefined ? list() : Promise.reject(error)
      }
      return api
    }

    it('is read again after 1, 2, 4 s when what failed may pass (no answer, 503, 429)', async () => {
      const { clock, facts, context } = setup(LANDS_WITHIN_MS)
      const api = failing([
        new RequestError('GET answered 503.', 503, true),
        new RequestError('GET got no answer: connection reset (ECONNRESET).', undefined, true),
        new RequestError('GET answered 429.', 429, true),
      ])
      expect(await searchCreated(api, facts, context, 900_000)).toEqual({
        found: 'none',
        landed: true,
      })
      expect(clock.sleeps).toEqual([1_000, 2_000, 4_000])
      expect(context.log.lines[0]).toBe(
        'info: Listing the tokens failed: GET answered 503. Looking again in 1 s.',
      )
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
      await expect(searchCreated(failing([error]), facts, context, 900_000)).rejects.toBe(error)
      expect(clock.sleeps).toEqual([])
    })

    it('fails when the next wait would pass its deadline', async () => {
      const { clock, facts, context } = setup(LANDS_WITHIN_MS, 5_000)
      const api = failing(
        Array.from({ length: 10 }, () => new RequestError('GET answered 502.', 502, true)),
      )
      await expect(searchCreated(api, facts, context, 900_000)).rejects.toThrow('answered 502')
      expect(clock.sleeps).toEqual([1_000, 2_000])
    })

    it('waits at most 8 s between two lists', async () => {
      const { clock, facts, context } = setup(LANDS_WITHIN_MS)
      const api = failing(
        Array.from({ length: 6 }, () => new RequestError('GET answered 503.', 503, true)),
      )
      await searchCreated(api, facts, context, 900_000)
      expect(clock.sleeps).toEqual([1_000, 2_000, 4_000, 8_000, 8_000, 8_000])
    })
  })
})
