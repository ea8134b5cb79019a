// A create whose first answer was lost and whose resend came back with a token not its own: the lost attempt's token may still land, so the record says the end must look for it.
import { expect, it } from '@jest/globals'
import { CreateLife, type CreateRecord } from '../../../../src/platform/create-life.js'
import { mustSearch } from '../../../../src/post/step.js'
import { FakeClock } from '../../../fixtures/clock.js'
import { recordingRunner } from '../../../fixtures/runner.js'
import { token } from '../../../fixtures/token-api.js'

const SENT_AT = Date.UTC(2026, 10, 22, 12, 0, 0)

it.each([
  ['a revoked token', { state: 'revoked' }, 'refused'],
  ['an active token of another name', { name: 'other' }, 'created'],
] as const)(
  'after a lost answer, a resend answered with %s still has the end look',
  async (_, fields, state) => {
    const saved: CreateRecord[] = []
    const life = new CreateLife('pr-1', 'always', {
      clock: new FakeClock(SENT_AT),
      log: recordingRunner(),
      list: () => Promise.resolve([]),
      platformTime: (at) => at,
      revoke: () => Promise.resolve(),
      record: (record) => saved.push(record),
    })
    life.written()
    await life.afterLostAnswer('POST x answered 502')
    const answered = token('t-1', 'pr-1', 0, {
      createdAt: new Date(SENT_AT).toISOString(),
      ...fields,
    })
    await expect(life.accept(answered, 'POST x')).rejects.toThrow('its value was not handed on')
    expect(saved.at(-1)).toMatchObject({ state, lostEarlier: true })
    expect(mustSearch(life.record)).toBe(true)
  },
)
