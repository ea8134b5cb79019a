// runPost's warnings when a revoke cannot be done, and what it leaves behind: no cancel
// listener, no open connection. Requests go to a FakeTransport (the other step tests use nock).
import { describe, expect, it } from '@jest/globals'
import { runPost } from '../../../src/post/step.js'
import { FakeClock } from '../../fixtures/clock.js'
import {
  ACCESS_TOKEN,
  API,
  CLIENT_SECRET,
  REFRESH_TOKEN,
  record,
  TOKEN_ID,
} from '../../fixtures/nock-platform.js'
import { noteCreate, POST_INPUTS as INPUTS } from '../../fixtures/post-state.js'
import { recordingRunner, type RecordingRunner } from '../../fixtures/runner.js'
import { FakeTransport, type Scripted } from '../../fixtures/transport.js'

const SENT_AT = Date.parse('2026-11-01T10:00:00.000Z')
const AUTH_OK: Scripted = {
  status: 200,
  json: { access_token: ACCESS_TOKEN, refresh_token: REFRESH_TOKEN, expires_in: 86400 },
}
const warnings = (runner: RecordingRunner) =>
  runner.lines.filter((line) => line.startsWith('warning:'))

/** Runs the post step against a FakeTransport with this script; all of it must be used. */
async function post(runner: RecordingRunner, script: Scripted[]): Promise<FakeTransport> {
  const transport = new FakeTransport(script)
  await runPost(runner, new FakeClock(SENT_AT + 61_000), transport)
  expect(script).toEqual([])
  expect(runner.failures).toEqual([])
  return transport
}

describe('runPost: the warning for a token it could not revoke', () => {
  it('gives no advice for a token the platform does not have', async () => {
    const runner = recordingRunner(INPUTS)
    noteCreate(runner, { name: 'ephemeral', id: TOKEN_ID })
    await post(runner, [
      AUTH_OK,
      { status: 404, json: { error: 'Token not found' } },
      { status: 200, json: [] },
    ])
    // The words of each warning: test/unit/golden-messages-post.test.ts.
    const [warning, ...more] = warnings(runner)
    expect(more).toEqual([])
    expect(warning).toContain(`Could not revoke gateway token 'ephemeral' (${TOKEN_ID})`)
    expect(warning).toContain(`no token with id ${TOKEN_ID} exists in the project`)
    expect(warning).toContain(`POST ${API}/prefix/api/tokens/${TOKEN_ID}/revoke`)
    expect(warning).not.toContain('still active')
  })

  it('points at operation: list for an id that is not a UUID, and sends nothing', async () => {
    const runner = recordingRunner(INPUTS)
    noteCreate(runner, { name: 'ephemeral', id: 'tok-1' })
    const transport = await post(runner, [])
    expect(transport.sent).toEqual([])
    const [warning, ...more] = warnings(runner)
    expect(more).toEqual([])
    expect(warning).toContain("Could not revoke gateway token 'ephemeral' (tok-1)")
    expect(warning).toContain('"tok-1" is not a UUID')
    expect(warning).toContain('look for it with operation: list')
    expect(warning).not.toContain('tokenId')
  })
})

describe('runPost: inputs it cannot connect with', () => {
  it('warns once for each thing it was to revoke, secrets hidden, sending nothing', async () => {
    const runner = recordingRunner({ ...INPUTS, baseUrl: `not a url ${CLIENT_SECRET}` })
    noteCreate(runner, { name: 'pr-7', sentAt: SENT_AT, answerLost: true, id: TOKEN_ID })
    const transport = await post(runner, [])
    expect(transport.sent).toEqual([])
    const [revoke, look, ...more] = warnings(runner)
    expect(more).toEqual([])
    expect(revoke).toContain(`Could not revoke gateway token 'pr-7' (${TOKEN_ID})`)
    expect(revoke).toContain(`tokenId: ${TOKEN_ID}`)
    expect(look).toContain("Could not look for the token named 'pr-7'")
    expect(look).toContain('created since 2026-11-01T09:59:00.000Z')
    for (const warning of [revoke, look]) {
      expect(warning).toContain("Input 'baseUrl'")
      expect(warning).toContain('"not a url ***"')
      expect(warning).not.toContain(CLIENT_SECRET)
    }
    expect(runner.cancelListeners).toBe(0)
  })
})

describe('runPost: what it leaves behind', () => {
  it('stops listening for a cancel and closes its connections once done', async () => {
    const runner = recordingRunner(INPUTS)
    noteCreate(runner, { name: 'ephemeral', id: TOKEN_ID })
    const listening: number[] = []
    const transport = new FakeTransport([
      AUTH_OK,
      { status: 200, json: record({ name: 'ephemeral', state: 'revoked', tokenValue: undefined }) },
    ])
    transport.onSend = () => {
      listening.push(runner.cancelListeners)
      expect(transport.closed).toBe(false)
    }
    await runPost(runner, new FakeClock(SENT_AT), transport)
    expect(runner.lines).toContain(
      `info: Revoked gateway token 'ephemeral' (${TOKEN_ID}) at the end of the job (revokeOnExit).`,
    )
    // One listener while the requests were sent; none, and the transport closed, after.
    expect(listening).toEqual([1, 1])
    expect(runner.cancelListeners).toBe(0)
    expect(transport.closed).toBe(true)
  })
})
