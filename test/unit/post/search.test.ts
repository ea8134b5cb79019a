// The post step's search for a lost create's token: it keeps looking while the create may land, and while the list fails.
import { describe, expect, it } from '@jest/globals'
import { Deadline } from '../../../src/shared/deadline.js'
import { RequestError } from '../../../src/platform/errors.js'
import { LATE_CREATE_MS, searchCreated } from '../../../src/post/search.js'
import type { CreateSent } from '../../../src/post/state.js'
import { FakeClock } from '../../fixtures/clock.js'
import { recordingRunner } from '../../fixtures/runner.js'
import { FakeTokenApi, token } from '../../fixtures/token-api.js'

/** A create of 'pr-7' sent `agoMs` before the fake clock's now. */
function setup(agoMs: number, totalMs = 900_000) {
  const clock = new FakeClock()
  const create: CreateSent = { name: 'pr-7', sentAt: clock.now() - agoMs, when: 'always' }
  const context = { clock, deadline: new Deadline(clock, totalMs), log: recordingRunner() }
  return { clock, create, context }
}
/** A token of 'pr-7' created at `at` (ms since the epoch). */
const made = (id: string, at: number) =>
  token(id, 'pr-7', 0, { createdAt: new Date(at).toISOString() })

describe('searchCreated', () => {
  it('looks again every 2 s while the create may still land, and finds it when it does', async () => {
    const { clock, create, context } = setup(1_000)
    const api = new FakeTokenApi()
    let lists = 0
    const list = api.listTokens.bind(api)
    api.listTokens = () => {
      if (++lists === 3) api.tokens.push(made('late', create.sentAt + 500))
      return list()
    }
    const found = await searchCreated(api, create, undefined, context)
    expect(found).toEqual({ found: 'one', token: expect.objectContaining({ id: 'late' }) })
    expect(clock.sleeps).toEqual([2_000, 2_000])
  })

  it('stops a minute after the create was sent: it no longer lands', async () => {
    const { clock, create, context } = setup(LATE_CREATE_MS - 3_000)
    const found = await searchCreated(new FakeTokenApi(), create, undefined, context)
    expect(found).toEqual({ found: 'none' })
    expect(clock.sleeps).toEqual([2_000, 1_000])
    const { clock: later, create: old, context: after } = setup(LATE_CREATE_MS)
    await searchCreated(new FakeTokenApi(), old, undefined, after)
    expect(later.sleeps).toEqual([])
  })

  it('does not wait past totalTimeout', async () => {
    const { clock, create, context } = setup(0, 2_000)
    expect(await searchCreated(new FakeTokenApi(), create, undefined, context)).toEqual({
      found: 'none',
    })
    expect(clock.sleeps).toEqual([])
  })

  it('leaves out the token the step made when it sent the create again', async () => {
    const { create, context } = setup(LATE_CREATE_MS)
    const api = new FakeTokenApi([
      made('second', create.sentAt + 3_000),
      made('first', create.sentAt + 500),
    ])
    const found = await searchCreated(api, create, 'second', context)
    expect(found).toEqual({ found: 'one', token: expect.objectContaining({ id: 'first' }) })
  })

  describe('a list that fails', () => {
    const failing = (errors: RequestError[]) => {
      const api = new FakeTokenApi()
      const list = api.listTokens.bind(api)
      api.listTokens = () => {
        const error = errors.shift()
        return error === undefined ? list() : Promise.reject(error)
      }
      return api
    }

    it('is read again after 1, 2, 4 s when it got no answer or a "not now"', async () => {
      const { clock, create, context } = setup(LATE_CREATE_MS)
      const api = failing([
        new RequestError('GET answered 503.', 503),
        new RequestError('GET got no answer.'),
        new RequestError('GET answered 429.', 429),
      ])
      expect(await searchCreated(api, create, undefined, context)).toEqual({ found: 'none' })
      expect(clock.sleeps).toEqual([1_000, 2_000, 4_000])
      expect(context.log.lines[0]).toBe(
        'info: Listing the tokens failed: GET answered 503. Looking again in 1 s, while totalTimeout allows.',
      )
    })

    it('fails at once on a refusal: trying again would not change it', async () => {
      const { clock, create, context } = setup(LATE_CREATE_MS)
      const api = failing([new RequestError('GET answered 403.', 403)])
      await expect(searchCreated(api, create, undefined, context)).rejects.toThrow('answered 403')
      expect(clock.sleeps).toEqual([])
    })

    it('fails when the next wait would pass totalTimeout', async () => {
      const { clock, create, context } = setup(LATE_CREATE_MS, 5_000)
      const api = failing(
        Array.from({ length: 10 }, () => new RequestError('GET answered 502.', 502)),
      )
      await expect(searchCreated(api, create, undefined, context)).rejects.toThrow('answered 502')
      expect(clock.sleeps).toEqual([1_000, 2_000])
    })
  })
})

describe('searchCreated: only what the create could have made', () => {
  // The main step sent every attempt within totalTimeout (15 min here) of sentAt, and one
  // lands within a minute: later tokens of the name are another's.
  const total = 900_000

  it('takes no token made after the create could have landed, even the only one', async () => {
    const { create, context } = setup(3 * 3_600_000, total)
    const api = new FakeTokenApi([
      made('later-job', create.sentAt + total + LATE_CREATE_MS + 2_001),
    ])
    expect(await searchCreated(api, create, undefined, context)).toEqual({ found: 'none' })
  })

  it('takes one made at the last moment it could land', async () => {
    const { create, context } = setup(3 * 3_600_000, total)
    const api = new FakeTokenApi([made('own', create.sentAt + total + LATE_CREATE_MS + 2_000)])
    expect(await searchCreated(api, create, undefined, context)).toEqual({
      found: 'one',
      token: expect.objectContaining({ id: 'own' }),
    })
  })

  it('without a Date header, allows the clocks a minute more, and no more', async () => {
    const { create, context } = setup(3 * 3_600_000, total)
    const last = create.sentAt + total + LATE_CREATE_MS + 60_000
    const api = new FakeTokenApi([made('own', last), made('other', last + 1)])
    api.platformOffsetMs = undefined
    expect(await searchCreated(api, create, undefined, context)).toEqual({
      found: 'one',
      token: expect.objectContaining({ id: 'own' }),
    })
  })

  it('leaves out the token the step made, whatever the case of its id', async () => {
    const { create, context } = setup(LATE_CREATE_MS)
    const api = new FakeTokenApi([made('ABC-1', create.sentAt + 500)])
    expect(await searchCreated(api, create, 'abc-1', context)).toEqual({ found: 'none' })
  })
})
