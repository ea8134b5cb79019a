// What both steps start with (runner/start.ts): the client under the step's budget, with a
// cancel listener, both released by close(); stopOnCancel, that listener.
import { describe, expect, it } from '@jest/globals'
import type { Connection } from '../../../src/inputs/read.js'
import { connect, CANCEL_GRACE_MS, stopOnCancel } from '../../../src/runner/start.js'
import { Secrets } from '../../../src/shared/secrets.js'
import { FakeClock } from '../../fixtures/clock.js'
import { ACCESS_TOKEN, API, AUTH, AUTH_PATH, CLIENT_SECRET } from '../../fixtures/nock-platform.js'
import { recordingRunner } from '../../fixtures/runner.js'
import { FakeTransport, type Scripted } from '../../fixtures/transport.js'
import { Deadline } from '../../../src/shared/time.js'
import { VirtualClock } from '../../fixtures/virtual-clock.js'
import { pinMessages } from '../../fixtures/golden.js'

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

describe('connect', () => {
  function connected(script: Scripted[] = [], connection: Connection = CONNECTION) {
    const runner = recordingRunner()
    const clock = new FakeClock()
    const transport = new FakeTransport(script)
    const secrets = new Secrets(runner.setSecret)
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

// stopOnCancel: SIGINT stops new requests and cuts those in flight after the grace; SIGTERM cuts them at once.
function setup() {
  const clock = new VirtualClock()
  const runner = recordingRunner()
  const deadline = new Deadline(clock, 0)
  const stop = stopOnCancel(runner, deadline, clock)
  return { clock, runner, deadline, stop }
}

/** Moves virtual time on by `ms`, running what comes due. */
const pass = (clock: VirtualClock, ms: number) => clock.run(clock.sleep(ms))

describe('stopOnCancel', () => {
  it('at SIGINT stops new requests at once, and cuts those in flight when the grace is over', async () => {
    const { clock, runner, deadline } = setup()
    runner.cancel('SIGINT')
    expect(deadline.expired()).toBe(true)
    expect(deadline.cause()).toEqual({ by: 'cancel', signal: 'SIGINT' })
    // The words: the golden messages at the end of this file.
    expect(runner.lines).toEqual([
      expect.stringMatching(/^info: Cancelled \(SIGINT\): no more requests start; .*5 s to end/),
    ])
    await pass(clock, CANCEL_GRACE_MS - 1)
    expect(deadline.cutSignal.aborted).toBe(false)
    await pass(clock, 1)
    expect(deadline.cutSignal.aborted).toBe(true)
  })

  it('leaves the runner 2.5 s after the grace, before SIGTERM at 7.5 s, to report', () => {
    expect(CANCEL_GRACE_MS).toBeLessThanOrEqual(7_500 - 2_500)
  })

  it('at SIGTERM cuts off what is in flight at once', () => {
    const { runner, deadline } = setup()
    runner.cancel('SIGTERM')
    expect(deadline.cutSignal.aborted).toBe(true)
    expect(deadline.cause()).toEqual({ by: 'cancel', signal: 'SIGTERM' })
    expect(runner.lines).toEqual([
      'info: Cancelled (SIGTERM): requests in flight are cut off; reporting what was done.',
    ])
  })

  it('at SIGTERM after SIGINT, cuts at once; the cause stays SIGINT', () => {
    const { runner, deadline } = setup()
    runner.cancel('SIGINT')
    runner.cancel('SIGTERM')
    expect(deadline.cutSignal.aborted).toBe(true)
    expect(deadline.cause()).toEqual({ by: 'cancel', signal: 'SIGINT' })
    expect(runner.lines).toHaveLength(2)
  })

  it('says nothing more at a second SIGINT, and does not restart the grace', async () => {
    const { clock, runner, deadline } = setup()
    runner.cancel('SIGINT')
    await pass(clock, 3_000)
    runner.cancel('SIGINT')
    await pass(clock, 2_000)
    expect(deadline.cutSignal.aborted).toBe(true)
    expect(runner.lines).toHaveLength(2)
  })

  it('once stopped, listens no more, and a grace under way cuts nothing', async () => {
    const { clock, runner, deadline, stop } = setup()
    expect(runner.cancelListeners).toBe(1)
    runner.cancel('SIGINT')
    stop()
    expect(runner.cancelListeners).toBe(0)
    await pass(clock, CANCEL_GRACE_MS)
    expect(deadline.cutSignal.aborted).toBe(false)
  })
})

// The words of the line a cancel logs, whole: see test/fixtures/golden.ts.
pinMessages('a cancel', [
  {
    situation: 'the runner cancels the step (SIGINT)',
    message: () => {
      const runner = recordingRunner()
      const clock = new FakeClock()
      stopOnCancel(runner, new Deadline(clock, 0), clock)
      runner.cancel('SIGINT')
      return runner.lines[0]
    },
    expected:
      'info: Cancelled (SIGINT): no more requests start; those in flight have 5 s to end, then what was done is reported.',
  },
])
