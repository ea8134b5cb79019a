// run and a create refused after an earlier attempt lost its answer (revokeOnExit): not "made no token", the lost attempt's token looked for and revoked.
import { expect, it } from '@jest/globals'
import nock from 'nock'
import { run as runPost } from '../../../../src/post/step.js'
import { FakeClock } from '../../../fixtures/clock.js'
import {
  API,
  authOk,
  record,
  revokeOk,
  TOKEN_ID,
  useNock,
} from '../../../fixtures/nock-platform.js'
import { noteCreate, POST_INPUTS as INPUTS } from '../../../fixtures/post-state.js'
import { recordingRunner } from '../../../fixtures/runner.js'

useNock()

it('looks for the token of the attempt whose answer was lost, and revokes it', async () => {
  const sentAt = Date.now() - 60_000
  const runner = recordingRunner(INPUTS)
  noteCreate(runner, { name: 'pr-7', sentAt, when: 'always', state: 'refused', lostEarlier: true })
  authOk()
  const createdAt = new Date(sentAt + 1_000).toISOString()
  nock(API)
    .get('/prefix/api/tokens')
    .reply(200, [record({ id: TOKEN_ID, name: 'pr-7', createdAt })])
  revokeOk()
  await runPost(runner, new FakeClock(Date.now()))
  expect(nock.pendingMocks()).toEqual([])
  expect(runner.lines.filter((line) => line.includes('made no token'))).toEqual([])
  expect(runner.lines).toContain(
    `info: Revoked gateway token 'pr-7' (${TOKEN_ID}) at the end of the job (revokeOnExit).`,
  )
})
