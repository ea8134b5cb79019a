// run's warnings when a revoke cannot be done, and what it leaves behind: no cancel
// listener, no open connection. Requests go to a FakeTransport (the other step tests use nock).
import { describe, expect, it } from '@jest/globals'
import { run as runPost } from '../../../../src/post/step.js'
import { FakeClock } from '../../../fixtures/clock.js'
import {
  ACCESS_TOKEN,
  API,
  CLIENT_SECRET,
  REFRESH_TOKEN,
  record,
  TOKEN_ID,
} from '../../../fixtures/nock-platform.js'
import { noteCreate, POST_INPUTS as INPUTS } from '../../../fixtures/post-state.js'
import { recordingRunner, type RecordingRunner } from '../../../fixtures/runner.js'
import { FakeTransport, type Scripted } from '../../../fixtures/transport.js'
import { TransportError } from '../../../../src/platform/http.js'

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

describe('run: the warning for a token it could not revoke', () => {
  it('gives no advice for a token the platform does not have', async () => {
    const runner = recordingRunner(INPUTS)
    noteCreate(runner, { name: 'ephemeral', id: TOKEN_ID })
    await post(runner, [
      AUTH_OK,
      { status: 404, json: { error: 'Token not found' } },
      { status: 200, json: [] },
    ])
    // The words of each warning: test/unit/post/step/golden-messages.test.ts.
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

describe('run: inputs it cannot connect with', () => {
  it('warns once for each thing it was to revoke, secrets hidden, sending nothing', async () => {
    const runner = recordingRunner({ ...INPUTS, baseUrl: `not a url ${CLIENT_SECRET}` })
    noteCreate(runner, { name: 'pr-7', sentAt: SENT_AT, lostEarlier: true, id: TOKEN_ID })
    const transport = await post(runner, [])
    expect(transport.sent).toEqual([])
    const [revoke, look, ...more] = warnings(runner)
    expect(more).toEqual([])
    expect(revoke).toContain(`Could not revoke gateway token 'pr-7' (${TOKEN_ID})`)
    expect(revoke).toContain(`tokenId: ${TOKEN_ID}`)
    expect(look).toContain("Could not look for the token named 'pr-7'")
    expect(look).toContain('created after 2026-11-01T09:59:00.000Z')
    for (const warning of [revoke, look]) {
      expect(warning).toContain("Input 'baseUrl'")
      expect(warning).toContain('"not a url ***"')
      expect(warning).not.toContain(CLIENT_SECRET)
    }
    expect(runner.cancelListeners).toBe(0)
  })
})

describe('run: what it leaves behind', () => {
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

describe('run: a search that does not find the token warns, within its bound', () => {
  const MAINTENANCE: Scripted = { status: 503, json: { error: 'maintenance' } }

  it('looks for 2 minutes at most, however long totalTimeout is, then warns naming the limit', async () => {
    const runner = recordingRunner({ ...INPUTS, totalTimeout: '900' })
    noteCreate(runner, { name: 'pr-7', sentAt: SENT_AT })
    const clock = new FakeClock(SENT_AT + 61_000)
    const transport = new FakeTransport([
      AUTH_OK,
      ...Array.from({ length: 200 }, () => MAINTENANCE),
    ])
    transport.clock = clock
    await runPost(runner, clock, transport)
    expect(clock.now() - (SENT_AT + 61_000)).toBeLessThanOrEqual(120_000)
    const [warning, ...more] = warnings(runner)
    expect(more).toEqual([])
    expect(warning).toContain("Could not look for the token named 'pr-7'")
    expect(warning).toContain('answered 503')
    expect(warning).toContain("An active token named 'pr-7' created after")
  })

  it('with totalTimeout lower than 2 minutes, within totalTimeout', async () => {
    const runner = recordingRunner({ ...INPUTS, totalTimeout: '60' })
    noteCreate(runner, { name: 'pr-7', sentAt: SENT_AT })
    const clock = new FakeClock(SENT_AT + 61_000)
    const transport = new FakeTransport([AUTH_OK, ...Array.from({ length: 40 }, () => MAINTENANCE)])
    transport.clock = clock
    await runPost(runner, clock, transport)
    expect(clock.now() - (SENT_AT + 61_000)).toBeLessThanOrEqual(60_000)
    expect(warnings(runner)).toEqual([expect.stringContaining("named 'pr-7'")])
  })

  it('when it ends before the create could land, warns: the token may come after the last look', async () => {
    const runner = recordingRunner({ ...INPUTS, totalTimeout: '3' })
    noteCreate(runner, { name: 'pr-7', sentAt: SENT_AT })
    const clock = new FakeClock(SENT_AT + 1_000)
    const none: Scripted = { status: 200, json: [] }
    await runPost(runner, clock, new FakeTransport([AUTH_OK, none, none]))
    // One look, 2 s, another; then less than 2 s is left of totalTimeout.
    expect(clock.sleeps).toEqual([2_000])
    expect(warnings(runner)).toEqual([
      "warning: Did not revoke a token named 'pr-7' at the end of the job: none was in the list, and a create can land after the last look. An active token named 'pr-7' created after 2026-11-01T09:59:00.000Z would be this step's, and nobody has its value: revoke it (operation: revoke, tokenId).",
    ])
  })

  it.each([
    [
      'an untrusted certificate',
      new TransportError('certificate not trusted (CERT_UNTRUSTED)', 'CERT_UNTRUSTED', false),
    ],
    ['a refused authentication', { status: 401, json: { errors: ['Invalid credentials'] } }],
  ] as [string, Scripted][])('stops at once on %s, and warns', async (_, answer) => {
    const runner = recordingRunner(INPUTS)
    noteCreate(runner, { name: 'pr-7', sentAt: SENT_AT })
    const clock = new FakeClock(SENT_AT + 61_000)
    const transport = await post(runner, [answer])
    expect(transport.sent).toHaveLength(1)
    expect(clock.sleeps).toEqual([])
    expect(warnings(runner)).toEqual([
      expect.stringContaining("Could not look for the token named 'pr-7'"),
    ])
  })

  it('stops at once on a list answered with a web page, naming baseUrl', async () => {
    const runner = recordingRunner(INPUTS)
    noteCreate(runner, { name: 'pr-7', sentAt: SENT_AT })
    const page: Scripted = {
      status: 200,
      headers: { 'Content-Type': 'text/html' },
      body: '<!doctype html><p>Sign in</p>',
    }
    const transport = await post(runner, [AUTH_OK, page])
    expect(transport.sent).toHaveLength(2)
    const [warning] = warnings(runner)
    expect(warning).toContain('answered 200 with a web page that is not JSON')
    expect(warning).toContain(
      `Check the baseUrl input (${API}/prefix): the action adds /api/tokens to it`,
    )
  })
})
