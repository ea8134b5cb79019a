// What both steps start with (runner/step.ts): secrets masked through the runner, and the
// client under the step's budget, with a cancel listener, both released by close().
import { describe, expect, it } from '@jest/globals'
import type { Connection } from '../../../src/inputs/read.js'
import { connect, maskedSecrets } from '../../../src/runner/start.js'
import { FakeClock } from '../../fixtures/clock.js'
import { ACCESS_TOKEN, API, AUTH, AUTH_PATH, CLIENT_SECRET } from '../../fixtures/nock-platform.js'
import { recordingRunner } from '../../fixtures/runner.js'
import { FakeTransport, type Scripted } from '../../fixtures/transport.js'

const CONNECTION: Connection = {
  clientId: 'client-1',
  clientSecret: CLIENT_SECRET,
  baseUrl: API,
  authUrl: AUTH,
  timeoutMs: 5_000,
  retries: 0,
  totalTimeoutMs: 60_000,
}
const AUTH_OK: Scripted = { status: 200, json: { access_token: ACCESS_TOKEN, expires_in: 86400 } }

describe('maskedSecrets', () => {
  it('hands each secret added to runner.setSecret, once, as it is added', () => {
    const runner = recordingRunner()
    const secrets = maskedSecrets(runner)
    secrets.add('first-secret')
    expect(runner.masked).toEqual(['first-secret'])
    secrets.add('second-secret', 'received')
    secrets.add('first-secret')
    expect(runner.masked).toEqual(['first-secret', 'second-secret'])
    expect(runner.events).toEqual(['mask first-secret', 'mask second-secret'])
  })

  it('hands on the secrets found in an answer, and scrubs what it masked', () => {
    const runner = recordingRunner()
    const secrets = maskedSecrets(runner)
    secrets.addFrom({ id: 'x', tokenValue: 'eyJ.gateway.value' })
    expect(runner.masked).toEqual(['eyJ.gateway.value'])
    expect(secrets.scrub('value eyJ.gateway.value here')).toBe('value *** here')
  })

  it('masks no blank value', () => {
    const runner = recordingRunner()
    const secrets = maskedSecrets(runner)
    secrets.add('   ')
    secrets.add(undefined)
    expect(runner.masked).toEqual([])
  })
})

describe('connect', () => {
  function connected(script: Scripted[] = [], connection: Connection = CONNECTION) {
    const runner = recordingRunner()
    const clock = new FakeClock()
    const transport = new FakeTransport(script)
    const secrets = maskedSecrets(runner)
    const step = connect(runner, connection, secrets, clock, { transport })
    return { runner, clock, transport, step }
  }

  it('listens for a cancel until close(), which stops listening and closes the transport', () => {
    const { runner, transport, step } = connected()
    expect(runner.cancelListeners).toBe(1)
    expect(transport.closed).toBe(false)
    step.close()
    expect(runner.cancelListeners).toBe(0)
    expect(transport.closed).toBe(true)
  })

  it('a cancel while connected ends the budget; after close(), a cancel reaches nothing', () => {
    const first = connected()
    first.runner.cancel('SIGTERM')
    expect(first.step.deadline.cause()).toEqual({ by: 'cancel', signal: 'SIGTERM' })
    expect(first.step.deadline.expired()).toBe(true)
    first.step.close()
    const second = connected()
    second.step.close()
    second.runner.cancel('SIGTERM')
    expect(second.step.deadline.cause()).toEqual({ by: 'totalTimeout', totalMs: 60_000 })
    expect(second.step.deadline.expired()).toBe(false)
    expect(second.runner.lines).toEqual([])
  })

  it('gives the step totalTimeout from now, on the clock it was given; 0 is no limit', () => {
    const { clock, step } = connected()
    expect(step.deadline.remaining()).toBe(60_000)
    clock.advance(59_999)
    expect(step.deadline.remaining()).toBe(1)
    clock.advance(1)
    expect(step.deadline.expired()).toBe(true)
    step.close()
    const unlimited = connected([], { ...CONNECTION, totalTimeoutMs: 0 })
    expect(unlimited.step.deadline.remaining()).toBe(Infinity)
    unlimited.step.close()
  })

  it('sends through the transport given, to the connection’s services, masking what comes back', async () => {
    const { runner, transport, step } = connected([AUTH_OK, { status: 200, json: [] }])
    await expect(step.client.listTokens()).resolves.toEqual([])
    step.close()
    expect(
      transport.sent.map(({ target, request }) => [target, request.method, request.url]),
    ).toEqual([
      ['auth', 'POST', `${AUTH}${AUTH_PATH}`],
      ['api', 'GET', `${API}/api/tokens`],
    ])
    expect(transport.sent.map(({ timeoutMs }) => timeoutMs)).toEqual([5_000, 5_000])
    expect(JSON.parse(transport.sent[0]?.request.body ?? '')).toEqual({
      clientId: 'client-1',
      secret: CLIENT_SECRET,
    })
    expect(runner.masked).toContain(ACCESS_TOKEN)
  })
})
