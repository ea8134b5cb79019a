// A create answered with another name or state is no success; its token is revoked at once unless it is plainly older.
import { describe, expect, it } from '@jest/globals'
import { checkCreated, type CreateContext } from '../../../src/platform/created-answer.js'
import { RequestError } from '../../../src/platform/errors.js'
import { token } from '../../fixtures/token-api.js'

const SENT_AT = Date.UTC(2026, 10, 22, 12, 0, 0)
const iso = (ms: number) => new Date(ms).toISOString()

function context(fields: Partial<CreateContext> = {}) {
  const revoked: string[] = []
  const ctx: CreateContext = {
    name: 'pr-1',
    request: 'POST https://api.example.com/api/tokens',
    sentAt: SENT_AT,
    platformTime: (at) => at,
    revoke: (id) => {
      revoked.push(id)
      return Promise.resolve()
    },
    ...fields,
  }
  return { ctx, revoked }
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

describe('checkCreated', () => {
  it('hands on an active token with the name asked for, revoking nothing', async () => {
    const { ctx, revoked } = context()
    await expect(checkCreated(created(), ctx)).resolves.toMatchObject({ id: 't-1' })
    expect(revoked).toEqual([])
  })

  it('revokes at once an active token of another name, and hands nothing on', async () => {
    const { ctx, revoked } = context()
    const message = await failure(checkCreated(created({ name: 'PR-1' }), ctx))
    // The words: test/unit/golden-messages-client.test.ts.
    expect(message).toContain('POST https://api.example.com/api/tokens answered')
    expect(message).toContain(`the token 'PR-1' (t-1)`)
    expect(message).toContain("not an active token named 'pr-1'")
    expect(message).toContain('It was revoked at once.')
    expect(revoked).toEqual(['t-1'])
  })

  it('fails without a revoke on a token in another state', async () => {
    const { ctx, revoked } = context()
    const message = await failure(checkCreated(created({ state: 'revoked' }), ctx))
    expect(message).toContain('in state "revoked", not an active token')
    expect(revoked).toEqual([])
    const pending = await failure(checkCreated(created({ state: 'pending' }), ctx))
    expect(pending).toContain('in state "pending"')
    expect(revoked).toEqual([])
  })

  it('names the token to revoke by hand when the revoke at once fails too', async () => {
    const { ctx } = context({ revoke: () => Promise.reject(new Error('answered 503.')) })
    const message = await failure(checkCreated(created({ name: 'other' }), ctx))
    expect(message).toContain('Revoking it at once failed too')
    expect(message).toContain('operation: revoke and tokenId: t-1')
    expect(message).toMatch(/answered 503\.$/)
    expect(message).not.toContain('It was revoked at once')
  })

  it('never revokes a token plainly older than the create: it may be a live one of another name', async () => {
    const { ctx, revoked } = context()
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
    const { ctx, revoked } = context({ platformTime: () => undefined })
    await failure(checkCreated(created({ name: 'x', createdAt: iso(SENT_AT - 59_000) }), ctx))
    expect(revoked).toEqual(['t-1'])
    await failure(checkCreated(created({ name: 'x', createdAt: iso(SENT_AT - 61_000) }), ctx))
    expect(revoked).toEqual(['t-1'])
  })

  it('revokes a mismatched token whose createdAt cannot be read: its value came in this answer', async () => {
    const { ctx, revoked } = context()
    await failure(checkCreated(created({ name: 'x', createdAt: 'soon' }), ctx))
    expect(revoked).toEqual(['t-1'])
  })
})
