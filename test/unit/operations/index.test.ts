import { describe, expect, it } from '@jest/globals'
import { Deadline } from '../../../src/shared/deadline.js'
import { perform } from '../../../src/operations/index.js'
import { FakeClock } from '../../fixtures/clock.js'
import { recordingRunner } from '../../fixtures/runner.js'
import { FakeTokenApi, token } from '../../fixtures/token-api.js'

const ID = '123e4567-e89b-42d3-a456-426614174000'

describe('perform', () => {
  const context = () => {
    const clock = new FakeClock()
    return { clock, log: recordingRunner(), deadline: new Deadline(clock, 0) }
  }

  it('runs each operation against the client', async () => {
    const api = new FakeTokenApi([token(ID, 'ci', 40)])
    const listed = await perform(
      api,
      { operation: 'list', name: undefined, state: 'all' },
      context(),
    )
    expect(listed).toMatchObject({ operation: 'list', total: 1 })
    const revoked = await perform(api, { operation: 'revoke', tokenId: ID }, context())
    expect(revoked).toMatchObject({ operation: 'revoke', alreadyRevoked: false })
    const cleaned = await perform(
      api,
      {
        operation: 'cleanup',
        name: 'ci',
        olderThan: undefined,
        keep: 0,
        dryRun: true,
        concurrency: 1,
      },
      context(),
    )
    expect(cleaned).toMatchObject({ operation: 'cleanup', revoked: [] })
    expect(api.calls).toEqual(['list', `revoke ${ID}`, 'list'])
  })
})
