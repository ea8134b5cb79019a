// A create's life from its send: each change of state recorded as it happens, its answer checked against the request.
import { describe, expect, it } from '@jest/globals'
import { AuthenticationError, DeadlineError, RequestError } from '../../../../src/shared/errors.js'
import {
  CreateLife,
  revokeUnheld,
  type CreateContext,
  type CreateRecord,
} from '../../../../src/platform/create-life.js'
import { FakeClock } from '../../../fixtures/clock.js'
import { recordingRunner } from '../../../fixtures/runner.js'
import { token } from '../../../fixtures/token-api.js'

const SENT_AT = Date.UTC(2026, 10, 22, 12, 0, 0)
const iso = (ms: number) => new Date(ms).toISOString()
const REQUEST = 'POST https://api.example.com/api/tokens'

/** A create of 'pr-1' sent at SENT_AT, the records it keeps, and the revokes it sends. */
function context(fields: Partial<CreateContext> = {}, when: CreateRecord['when'] = 'always') {
  const revoked: string[] = []
  const saved: CreateRecord[] = []
  const log = recordingRunner()
  const ctx: CreateContext = {
    clock: new FakeClock(SENT_AT),
    log,
    list: () => Promise.resolve([]),
    platformTime: (at) => at,
    revoke: (id) => {
      revoked.push(id)
      return Promise.resolve()
    },
    record: (record) => saved.push(record),
    ...fields,
  }
  return { create: new CreateLife('pr-1', when, ctx), revoked, saved, log }
}
const created = (fields: Parameters<typeof token>[3] = {}) =>
  token('t-1', 'pr-1', 0, { createdAt: iso(SENT_AT + 500), ...fields })
const failure = async (promise: Promise<unknown>) => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  if (!(error instanceof RequestError)) throw new Error('expected a RequestError')
  return error.message
}
const checkCreated = (token: ReturnType<typeof created>, { create }: ReturnType<typeof context>) =>
  create.accept(token, REQUEST)

describe('CreateLife: each change of state recorded as it happens', () => {
  const NOT_SENT: CreateRecord = {
    name: 'pr-1',
    sentAt: SENT_AT,
    state: 'not sent',
    when: 'always',
  }

  it('records the name, the time and revokeOnExit before anything is sent, then each change, whole', async () => {
    const clock = new FakeClock(SENT_AT)
    const life = context({ clock })
    expect(life.saved).toEqual([NOT_SENT])
    life.create.written()
    // Written again (a retry): when it was last sent, which bounds when its token may land.
    clock.advance(4_000)
    life.create.written()
    await life.create.accept(created(), REQUEST)
    const sent = { ...NOT_SENT, state: 'sent' }
    expect(life.saved).toEqual([
      NOT_SENT,
      { ...sent, lastInFlightAt: SENT_AT },
      { ...sent, lastInFlightAt: SENT_AT + 4_000 },
      { ...sent, state: 'created', lastInFlightAt: SENT_AT + 4_000, id: 't-1', lostEarlier: false },
    ])
    expect(context({}, 'failure').saved).toEqual([{ ...NOT_SENT, when: 'failure' }])
  })

  it('sends nothing when not even the first record can be kept', () => {
    const record = () => {
      throw new Error('could not write GITHUB_STATE')
    }
    expect(() => context({ record })).toThrow('could not write GITHUB_STATE')
  })

  it.each([
    ['a refusal (400)', 'refused', new RequestError('answered 400', 400)],
    ['a 429 whose retries ran out', 'refused', new RequestError('answered 429', 429, true)],
    ['a refused authentication', 'refused', new AuthenticationError('refused', 401)],
    ['a 503 whose retries ran out', 'unknown', new RequestError('answered 503', 503, true)],
    ['a 408', 'unknown', new RequestError('answered 408', 408, true)],
    ['no answer', 'unknown', new RequestError('got no answer', undefined, true)],
    ['the deadline', 'unknown', new DeadlineError('ran out', undefined, true)],
  ] as const)('after it was written, %s leaves it %s', (_, state, error) => {
    const life = context()
    life.create.written()
    life.create.failed(error)
    expect(life.saved.at(-1)).toEqual({ ...NOT_SENT, state, lastInFlightAt: SENT_AT })
  })

  it('a refusal before it was written whole leaves it refused, anything else not sent', () => {
    const never = context()
    never.create.failed(new RequestError('got no answer: connection refused', undefined, true))
    expect(never.saved).toEqual([NOT_SENT])
    const refused = context()
    refused.create.failed(new AuthenticationError('refused', 401))
    expect(refused.saved.at(-1)).toEqual({ ...NOT_SENT, state: 'refused' })
  })

  it('a failure after the token was known, or an answer was lost, changes nothing', async () => {
    const known = context()
    await known.create
      .accept(created({ name: 'x', createdAt: iso(SENT_AT + 1) }), REQUEST)
      .catch(() => undefined)
    known.create.failed(new RequestError('answered 400', 400))
    expect(known.saved.at(-1)).toMatchObject({ id: 't-1', state: 'created' })
    const lost = context()
    lost.create.written()
    await lost.create.afterLostAnswer('POST x answered 502')
    lost.create.failed(new RequestError('answered 400', 400))
    expect(lost.saved.at(-1)).toMatchObject({ state: 'unknown' })
  })

  it('a record that cannot be kept mid-create fails the create, revoking its token: nobody would', async () => {
    let writes = 0
    const record = () => {
      if (++writes > 1) throw new Error('could not write GITHUB_STATE: ENOSPC')
    }
    const life = context({ record })
    life.create.written()
    const error = await life.create.accept(created(), REQUEST).catch((e: unknown) => e)
    expect(String(error)).toContain('could not write GITHUB_STATE: ENOSPC.')
    expect(String(error)).toContain(
      "The value of the new gateway token 'pr-1' (t-1) was not handed on. It was revoked at once.",
    )
    expect(life.revoked).toEqual(['t-1'])
  })
})

describe('revokeUnheld: a token nobody holds the value of', () => {
  const made = created()
  it('is revoked at once, and says so', async () => {
    const { revoked } = context()
    const revoke = (id: string) => Promise.resolve(revoked.push(id))
    expect(await revokeUnheld(revoke, made)).toBe('It was revoked at once.')
    expect(revoked).toEqual(['t-1'])
  })
  it('is named by its id, with why, when the revoke fails too', async () => {
    const revoke = () => Promise.reject(new Error('POST x answered 503'))
    expect(await revokeUnheld(revoke, made)).toBe(
      'Revoking it at once failed too: POST x answered 503. Revoke it with operation: revoke and tokenId: t-1.',
    )
  })
})

describe('CreateLife.afterLostAnswer: the list after a lost answer', () => {
  it('takes the one token of it in the list, recording it created', async () => {
    const mine = '00000000-0000-4000-8000-00000000000a'
    const life = context({ list: () => Promise.resolve([created({ id: mine })]) })
    life.create.written()
    await expect(life.create.afterLostAnswer('POST x answered 502')).resolves.toMatchObject({
      id: mine,
    })
    expect(life.saved.at(-1)).toMatchObject({ state: 'created', id: mine, lostEarlier: false })
  })

  it('sends again when none is there, and a second lost answer marks the first as may still land', async () => {
    const mine = '00000000-0000-4000-8000-00000000000a'
    let lists = 0
    const list = () => Promise.resolve(++lists === 1 ? [] : [created({ id: mine })])
    const life = context({ list })
    life.create.written()
    await expect(life.create.afterLostAnswer('POST x answered 502')).resolves.toBeUndefined()
    expect(life.saved.at(-1)).toMatchObject({ state: 'unknown' })
    expect(life.log.lines).toContain(
      "info: No token named 'pr-1' was created: sending the create again.",
    )
    await life.create.afterLostAnswer('POST x answered 502')
    expect(life.saved.at(-1)).toMatchObject({ state: 'created', id: mine, lostEarlier: true })
  })

  it('says where its token would be when the list fails too', async () => {
    const life = context({ list: () => Promise.reject(new Error('GET answered 503.')) })
    const message = await failure(life.create.afterLostAnswer('POST x answered 502'))
    expect(message).toContain('listing the tokens failed too: GET answered 503.')
    expect(message).toContain("An active token named 'pr-1' created after")
  })
})

describe('CreateLife.accept: after a lost answer, who looks for its token', () => {
  it('with revokeOnExit, says the post step looks', async () => {
    const life = context()
    life.create.written()
    await life.create.afterLostAnswer('POST x answered 502')
    await life.create.accept(created(), REQUEST)
    expect(life.log.lines).toContain(
      'info: An earlier attempt got no answer: the post step looks for a token it may have made, beside t-1 (revokeOnExit).',
    )
  })

  it('after one lost answer whose token the list showed, looks for no other', async () => {
    const mine = '00000000-0000-4000-8000-00000000000a'
    const life = context({ list: () => Promise.resolve([created({ id: mine })]) })
    life.create.written()
    const found = await life.create.afterLostAnswer('POST x answered 502')
    await life.create.accept(found ?? created(), REQUEST)
    expect(life.log.lines.filter((line) => line.includes('An earlier attempt'))).toEqual([])
    expect(life.saved.at(-1)).toMatchObject({ state: 'created', lostEarlier: false })
  })

  it('without it, warns where that token would be', async () => {
    const life = context({}, 'never')
    life.create.written()
    await life.create.afterLostAnswer('POST x answered 502')
    await life.create.accept(created(), REQUEST)
    const warnings = life.log.lines.filter((line) => line.startsWith('warning'))
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain("An active token named 'pr-1' other than t-1")
  })
})

describe('CreateLife.accept: the answer checked against the request', () => {
  it('hands on an active token with the name asked for, revoking nothing', async () => {
    const ctx = context()
    const { revoked } = ctx
    await expect(checkCreated(created(), ctx)).resolves.toMatchObject({ id: 't-1' })
    expect(revoked).toEqual([])
  })

  it('revokes at once an active token of another name, and hands nothing on', async () => {
    const ctx = context()
    const { revoked } = ctx
    const message = await failure(checkCreated(created({ name: 'PR-1' }), ctx))
    // The words: test/unit/platform/create-life/golden-messages.test.ts.
    expect(message).toContain('POST https://api.example.com/api/tokens answered')
    expect(message).toContain(`the token 'PR-1' (t-1)`)
    expect(message).toContain("not an active token named 'pr-1'")
    expect(message).toContain('It was revoked at once.')
    expect(revoked).toEqual(['t-1'])
  })

  it('fails without a revoke on a token in another state', async () => {
    const ctx = context()
    const { revoked } = ctx
    const message = await failure(checkCreated(created({ state: 'revoked' }), ctx))
    expect(message).toContain('in state "revoked", not an active token')
    // Not active: whose it is does not matter, it was not revoked either way.
    expect(message).not.toContain("may be another's")
    expect(revoked).toEqual([])
    const pending = await failure(checkCreated(created({ state: 'pending' }), ctx))
    expect(pending).toContain('in state "pending"')
    expect(revoked).toEqual([])
  })

  it('names the token to revoke by hand when the revoke at once fails too', async () => {
    const ctx = context({ revoke: () => Promise.reject(new Error('answered 503.')) })
    const message = await failure(checkCreated(created({ name: 'other' }), ctx))
    expect(message).toMatch(/answered 503\. Revoke it with operation: revoke and tokenId: t-1\.$/)
  })

  it('never revokes a token plainly older than the create: it may be a live one of another name', async () => {
    const ctx = context()
    const { revoked } = ctx
    const old = created({ name: 'prod', createdAt: iso(SENT_AT - 3_000) })
    expect(await failure(checkCreated(old, ctx))).toContain(
      "It was created before this create was sent, so it may be another's: it was not revoked.",
    )
    expect(revoked).toEqual([])
    // Within the clocks' margin (2 s with a Date header), its edge included, it is taken for
    // the create's.
    await failure(checkCreated(created({ name: 'prod', createdAt: iso(SENT_AT - 1_000) }), ctx))
    await failure(checkCreated(created({ name: 'prod', createdAt: iso(SENT_AT - 2_000) }), ctx))
    expect(revoked).toEqual(['t-1', 't-1'])
  })

  it("without the platform's clock, allows a minute either way", async () => {
    const ctx = context({ platformTime: () => undefined })
    const { revoked } = ctx
    await failure(checkCreated(created({ name: 'x', createdAt: iso(SENT_AT - 59_000) }), ctx))
    expect(revoked).toEqual(['t-1'])
    await failure(checkCreated(created({ name: 'x', createdAt: iso(SENT_AT - 61_000) }), ctx))
    expect(revoked).toEqual(['t-1'])
  })

  it('revokes a mismatched token whose createdAt cannot be read: its value came in this answer', async () => {
    const ctx = context()
    const { revoked } = ctx
    await failure(checkCreated(created({ name: 'x', createdAt: 'soon' }), ctx))
    expect(revoked).toEqual(['t-1'])
  })

  it('records the id of a mismatched token it revokes, and none it leaves as another’s', async () => {
    const ours = context()
    await failure(checkCreated(created({ name: 'x' }), ours))
    expect(ours.saved.at(-1)).toMatchObject({ id: 't-1', state: 'created' })
    const theirs = context()
    await failure(checkCreated(created({ name: 'x', createdAt: iso(SENT_AT - 3_000) }), theirs))
    expect(theirs.saved.at(-1)).toMatchObject({ state: 'refused' })
    expect(theirs.saved.at(-1)).not.toHaveProperty('id')
  })
})
