// One create followed from its send: its answer checked against the request, and each fact saved for the post step as it is learnt.
import { describe, expect, it } from '@jest/globals'
import { AuthenticationError, DeadlineError, RequestError } from '../../../src/shared/errors.js'
import {
  FollowedCreate,
  type CreateContext,
  type CreateFacts,
} from '../../../src/platform/lost-create.js'
import { FakeClock } from '../../fixtures/clock.js'
import { recordingRunner } from '../../fixtures/runner.js'
import { token } from '../../fixtures/token-api.js'

const SENT_AT = Date.UTC(2026, 10, 22, 12, 0, 0)
const iso = (ms: number) => new Date(ms).toISOString()
const REQUEST = 'POST https://api.example.com/api/tokens'

/** A create of 'pr-1' sent at SENT_AT, the facts it saves, and the revokes it sends. */
function context(fields: Partial<CreateContext> = {}) {
  const revoked: string[] = []
  const saved: CreateFacts[] = []
  const ctx: CreateContext = {
    clock: new FakeClock(SENT_AT),
    log: recordingRunner(),
    list: () => Promise.resolve([]),
    platformTime: (at) => at,
    revoke: (id) => {
      revoked.push(id)
      return Promise.resolve()
    },
    save: (facts) => saved.push(facts),
    postStepLooks: true,
    ...fields,
  }
  return { create: new FollowedCreate('pr-1', ctx), revoked, saved }
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

describe('FollowedCreate: the facts saved for the post step', () => {
  const SENDING = { name: 'pr-1', sentAt: SENT_AT, written: false, refused: false, lost: false }

  it('saves the name and the time before anything is sent, then each fact as it comes, whole', async () => {
    const followed = context()
    expect(followed.saved).toEqual([SENDING])
    followed.create.written()
    followed.create.written()
    await followed.create.accept(created(), REQUEST)
    expect(followed.saved).toEqual([
      SENDING,
      { ...SENDING, written: true },
      { ...SENDING, written: true, id: 't-1' },
    ])
  })

  it.each([
    ['a refusal (400)', new RequestError('answered 400', 400), { refused: true }],
    ['a 429 whose retries ran out', new RequestError('answered 429', 429, true), { refused: true }],
    ['a refused authentication', new AuthenticationError('refused', 401), { refused: true }],
    ['a 503 whose retries ran out', new RequestError('answered 503', 503, true), { lost: true }],
    ['a 408', new RequestError('answered 408', 408, true), { lost: true }],
    ['no answer', new RequestError('got no answer', undefined, true), { lost: true }],
    ['the deadline', new DeadlineError('ran out', undefined, true), { lost: true }],
  ])('after it was written, %s is saved as %o', (_, error, change) => {
    const followed = context()
    followed.create.written()
    followed.create.failed(error)
    expect(followed.saved.at(-1)).toEqual({ ...SENDING, written: true, ...change })
  })

  it('a failure before it was written whole saves nothing more: nothing was made', () => {
    const followed = context()
    followed.create.failed(new RequestError('got no answer: connection refused', undefined, true))
    expect(followed.saved).toEqual([SENDING])
  })

  it('a failure after the token was known, or an attempt was lost, changes nothing', async () => {
    const known = context()
    await known.create
      .accept(created({ name: 'x', createdAt: iso(SENT_AT + 1) }), REQUEST)
      .catch(() => undefined)
    known.create.failed(new RequestError('answered 400', 400))
    expect(known.saved.at(-1)).toMatchObject({ id: 't-1', refused: false })
    const lost = context()
    await lost.create.afterLostAnswer('POST x answered 502')
    lost.create.failed(new RequestError('answered 400', 400))
    expect(lost.saved.at(-1)).toMatchObject({ lost: true, refused: false })
  })
})

describe('FollowedCreate.accept: the answer checked against the request', () => {
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
    // The words: test/unit/golden-messages-client.test.ts.
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
    expect(revoked).toEqual([])
    const pending = await failure(checkCreated(created({ state: 'pending' }), ctx))
    expect(pending).toContain('in state "pending"')
    expect(revoked).toEqual([])
  })

  it('names the token to revoke by hand when the revoke at once fails too', async () => {
    const ctx = context({ revoke: () => Promise.reject(new Error('answered 503.')) })
    const message = await failure(checkCreated(created({ name: 'other' }), ctx))
    expect(message).toContain('Revoking it at once failed too')
    expect(message).toContain('operation: revoke and tokenId: t-1')
    expect(message).toMatch(/answered 503\. Revoke it with operation: revoke and tokenId: t-1\.$/)
    expect(message).not.toContain('It was revoked at once')
  })

  it('never revokes a token plainly older than the create: it may be a live one of another name', async () => {
    const ctx = context()
    const { revoked } = ctx
    const old = created({ name: 'prod', createdAt: iso(SENT_AT - 3_000) })
    expect(await failure(checkCreated(old, ctx))).toContain(
      "It was created before this create was sent, so it may be another's: it was not revoked.",
    )
    expect(revoked).toEqual([])
    // Within the clocks' margin (2 s with a Date header) it is taken for the create's.
    await failure(checkCreated(created({ name: 'prod', createdAt: iso(SENT_AT - 1_000) }), ctx))
    expect(revoked).toEqual(['t-1'])
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

  it('saves the id of a mismatched token it revokes, and saves none it leaves as another’s', async () => {
    const ours = context()
    await failure(checkCreated(created({ name: 'x' }), ours))
    expect(ours.saved.at(-1)).toMatchObject({ id: 't-1', refused: false })
    const theirs = context()
    await failure(checkCreated(created({ name: 'x', createdAt: iso(SENT_AT - 3_000) }), theirs))
    expect(theirs.saved.at(-1)).toMatchObject({ refused: true })
    expect(theirs.saved.at(-1)).not.toHaveProperty('id')
  })
})
