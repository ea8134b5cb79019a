// keepIds on the committed bundle: a token named by its id is never revoked, the others are as
// before, and an id that is not a UUID stops the step before any request.
import { describe, expect, it } from '@jest/globals'
import {
  AUTH,
  expectCleanFailure,
  LIST,
  revokeLine,
  runAgainst,
  useFakePlatform,
} from './helpers.js'

const platform = useFakePlatform()
const DAY = 86_400_000

describe('cleanup with keepIds (the committed bundle on Node 24)', () => {
  it('never revokes the token it names, even where keep: 1 would: the rotation just rolled it out', async () => {
    const rolledOut = platform().seed({ name: 'mediator-production', ageMs: 1 * DAY })
    // Made after the rollout (another run): the newest, which keep: 1 keeps.
    const since = platform().seed({ name: 'mediator-production', ageMs: 60_000 })
    const old = platform().seed({ name: 'mediator-production', ageMs: 30 * DAY })
    const run = await runAgainst(platform(), {
      operation: 'cleanup',
      name: 'mediator-production',
      keep: '1',
      keepIds: rolledOut.id,
    })

    expect(run.exitCode).toBe(0)
    expect(platform().requestLines()).toEqual([AUTH, LIST, revokeLine(old.id)])
    expect(platform().tokens.get(rolledOut.id)?.state).toBe('active')
    expect(platform().tokens.get(since.id)?.state).toBe('active')
    expect(platform().tokens.get(old.id)?.state).toBe('revoked')
    expect(run.outputs.count).toBe('1')
    expect(run.log).toContain(
      `Kept gateway token 'mediator-production' (${rolledOut.id}), 1d old: its id is in keepIds.`,
    )
    expect(run.summary).toContain('never the token id in keepIds.')
    expect(run.summary).toContain(`<code>${rolledOut.id}</code> | 1d | its id is in keepIds |`)
  })

  it('with keep: 0 revokes every other token of the name, and not the one named', async () => {
    const rolledOut = platform().seed({ name: 'mediator-production', ageMs: 1 * DAY })
    const other = platform().seed({ name: 'mediator-production', ageMs: 2 * DAY })
    const run = await runAgainst(platform(), {
      operation: 'cleanup',
      name: 'mediator-production',
      keep: '0',
      keepIds: `\n${rolledOut.id.toUpperCase()}\n`,
    })

    expect(run.exitCode).toBe(0)
    expect(platform().requestLines()).toEqual([AUTH, LIST, revokeLine(other.id)])
    expect(platform().tokens.get(rolledOut.id)?.state).toBe('active')
  })

  it('refuses an id that is not a UUID before any request, naming keepIds', async () => {
    const token = platform().seed({ name: 'mediator-production', ageMs: 30 * DAY })
    const run = await runAgainst(platform(), {
      operation: 'cleanup',
      name: 'mediator-production',
      keep: '0',
      keepIds: `${token.id}\nmediator-production`,
    })

    expect(expectCleanFailure(run)).toBe(
      'Input \'keepIds\' must hold token ids (UUIDs), one per line, like 123e4567-e89b-42d3-a456-426614174000; got "mediator-production".',
    )
    expect(platform().requestLines()).toEqual([])
    expect(platform().tokens.get(token.id)?.state).toBe('active')
  })
})
