// How long a create's token may still land: a while after an attempt was last in flight (written, or its answer lost), and every lost attempt kept in the record, so that the end looks for each token.
import { describe, expect, it } from '@jest/globals'
import { CreateLife, type CreateRecord } from '../../../../src/platform/create-life.js'
import { DeadlineError, RequestError } from '../../../../src/shared/errors.js'
import type { RevokeOnExit, TokenRecord } from '../../../../src/shared/records.js'
import { FakeClock } from '../../../fixtures/clock.js'
import { recordingRunner } from '../../../fixtures/runner.js'
import { token } from '../../../fixtures/token-api.js'

const SENT_AT = Date.UTC(2026, 10, 22, 12, 0, 0)
const ID = '123e4567-e89b-42d3-a456-426614174000'
/** The token of 'pr-1' the platform made `afterMs` after the first send. */
const made = (afterMs: number) =>
  token(ID, 'pr-1', 0, { createdAt: new Date(SENT_AT + afterMs).toISOString(), tokenValue: 'v' })

/** A create of 'pr-1' whose lists answer `lists`, one each, then nothing. */
function life(lists: TokenRecord[][], when: RevokeOnExit = 'always') {
  const clock = new FakeClock(SENT_AT)
  const saved: CreateRecord[] = []
  const log = recordingRunner()
  const create = new CreateLife('pr-1', when, {
    clock,
    log,
    list: () => Promise.resolve(lists.shift() ?? []),
    platformTime: (at) => at,
    revoke: () => Promise.resolve(),
    record: (record) => saved.push(record),
  })
  return { create, clock, saved, log }
}

describe('a lost answer: in flight until it was known lost', () => {
  it('finds a token a slow platform made a minute after the write, its answer lost later still', async () => {
    // Written at 0; the proxy gave up at 65 s (504); the platform made the token at 100 s.
    const { create, clock, saved } = life([[made(100_000)]])
    create.written()
    clock.advance(130_000)
    expect(await create.afterLostAnswer('POST x answered 504')).toMatchObject({ id: ID })
    expect(saved.at(-1)).toMatchObject({ state: 'created', lastInFlightAt: SENT_AT + 130_000 })
  })

  it('records when an attempt cut off by the deadline was last in flight', () => {
    const { create, clock, saved } = life([])
    create.written()
    clock.advance(30_000)
    create.failed(new DeadlineError('ran out while it waited', undefined, true))
    expect(saved.at(-1)).toMatchObject({ state: 'unknown', lastInFlightAt: SENT_AT + 30_000 })
  })

  it('moves on when a resend after a lost answer is cut off too: it was in flight until then', async () => {
    const { create, clock, saved } = life([[]])
    create.written()
    expect(await create.afterLostAnswer('POST x answered 502')).toBeUndefined()
    clock.advance(1_000)
    create.written() // Sent again; cut off 30 s later, its answer never came.
    clock.advance(30_000)
    create.failed(new DeadlineError('ran out while it waited', undefined, true))
    expect(saved.at(-1)).toMatchObject({ state: 'unknown', lastInFlightAt: SENT_AT + 31_000 })
  })

  it('leaves a refused create refused, and one never written not sent', () => {
    const refused = life([])
    refused.create.written()
    refused.create.failed(new RequestError('answered 400', 400))
    refused.create.failed(new DeadlineError('ran out', undefined, true))
    expect(refused.saved.at(-1)).toMatchObject({ state: 'refused', lastInFlightAt: SENT_AT })
    const never = life([])
    never.create.failed(new DeadlineError('ran out before it was sent', undefined, false))
    expect(never.saved).toHaveLength(1)
  })
})

describe('two lost answers', () => {
  it('keep the earlier one when a later attempt’s token is found and accepted: the end looks for both', async () => {
    const { create, saved, log } = life([[], [made(500)]])
    create.written()
    expect(await create.afterLostAnswer('POST x answered 502')).toBeUndefined()
    create.written() // Sent again, and that answer is lost too: its token is in the list.
    const found = await create.afterLostAnswer('POST x got no answer')
    await create.accept(found ?? made(500), 'POST x')
    expect(saved.at(-1)).toMatchObject({ state: 'created', id: ID, lostEarlier: true })
    // revokeOnExit: always looks whatever the job's status: no condition in the line.
    expect(log.lines.at(-1)).toBe(
      `info: An earlier attempt got no answer: the post step looks for a token it may have made, beside ${ID} (revokeOnExit).`,
    )
  })

  it('with revokeOnExit: failure, say the post step looks only if the job does not succeed', async () => {
    const { create, log } = life([[]], 'failure')
    create.written()
    await create.afterLostAnswer('POST x answered 502')
    await create.accept(made(500), 'POST x')
    expect(log.lines.at(-1)).toBe(
      `info: An earlier attempt got no answer: the post step looks for a token it may have made, beside ${ID} (revokeOnExit: failure, if the job does not succeed).`,
    )
  })
})
