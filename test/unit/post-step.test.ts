import { describe, expect, it } from '@jest/globals'
import nock from 'nock'
import { saveTokenToRevoke } from '../../src/post-state.js'
import { runPost } from '../../src/post-step.js'
import {
  API,
  AUTH,
  AUTH_PATH,
  authOk,
  CLIENT_SECRET,
  record,
  TOKEN_ID,
  useNock,
} from '../fixtures/nock-platform.js'
import { recordingRunner } from '../fixtures/runner.js'

useNock()
const REVOKE = `/prefix/api/tokens/${TOKEN_ID}/revoke`

/** A runner whose state holds what the main step saved. */
function postRunner() {
  const runner = recordingRunner(INPUTS)
  saveTokenToRevoke(runner, { id: TOKEN_ID, name: 'ephemeral' })
  return runner
}
const INPUTS = {
  clientId: 'client-1',
  clientSecret: CLIENT_SECRET,
  baseUrl: `${API}/prefix`,
  authUrl: AUTH,
  retries: '0',
}

describe('runPost (revokeOnExit)', () => {
  it('does nothing and says nothing without a token saved by the main step', async () => {
    const runner = recordingRunner(INPUTS)
    await runPost(runner)
    expect(runner.lines).toEqual([])
    expect(runner.events).toEqual([])
    expect(runner.failures).toEqual([])
  })

  it('authenticates anew and revokes the token, masking the client secret first', async () => {
    const runner = postRunner()
    authOk()
    nock(API)
      .post(REVOKE)
      .query({ tokenId: TOKEN_ID })
      .reply(200, record({ state: 'revoked', tokenValue: undefined }))
    await runPost(runner)
    expect(nock.pendingMocks()).toEqual([])
    expect(runner.events[1]).toBe(`mask ${CLIENT_SECRET}`)
    expect(runner.events[0]).toBe('read clientSecret')
    expect(runner.lines).toContain(
      `info: Revoked gateway token 'ephemeral' (${TOKEN_ID}) at the end of the job (revokeOnExit).`,
    )
    expect(runner.failures).toEqual([])
  })

  it('says so when the token was revoked already', async () => {
    const runner = postRunner()
    authOk()
    nock(API).post(REVOKE).query(true).reply(409, { error: 'already revoked' })
    nock(API)
      .get('/prefix/api/tokens')
      .reply(200, [record({ state: 'revoked', tokenValue: undefined })])
    await runPost(runner)
    expect(runner.lines).toContain(
      `info: The gateway token 'ephemeral' (${TOKEN_ID}) was already revoked before the end of the job.`,
    )
  })

  it('only warns, naming the token, when it cannot revoke it', async () => {
    const runner = postRunner()
    nock(AUTH)
      .post(AUTH_PATH)
      .reply(503, { error: `down ${CLIENT_SECRET}` })
    await runPost(runner)
    expect(runner.failures).toEqual([])
    expect(runner.lines.filter((line) => !line.startsWith('debug:'))).toEqual([
      `warning: Could not revoke gateway token 'ephemeral' (${TOKEN_ID}) at the end of the job: ` +
        `authentication failed: POST ${AUTH}${AUTH_PATH} answered 503 Service Unavailable: down ***. ` +
        `It may still be active: revoke it with operation: revoke and tokenId: ${TOKEN_ID}.`,
    ])
  })

  it('does not call a token that does not exist "still active"', async () => {
    const runner = postRunner()
    authOk()
    nock(API).post(REVOKE).query(true).reply(404, { error: 'Token not found' })
    nock(API).get('/prefix/api/tokens').reply(200, [])
    await runPost(runner)
    const warning = runner.lines.find((line) => line.startsWith('warning:'))
    expect(warning).toContain(`no token with id ${TOKEN_ID} exists in the project`)
    expect(warning).not.toContain('still active')
  })
})
