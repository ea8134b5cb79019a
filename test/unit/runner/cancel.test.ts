// stopOnCancel: SIGINT stops new requests and cuts those in flight after the grace; SIGTERM cuts them at once.
import { describe, expect, it } from '@jest/globals'
import { CANCEL_GRACE_MS, stopOnCancel } from '../../../src/runner/start.js'
import { Deadline } from '../../../src/shared/time.js'
import { recordingRunner } from '../../fixtures/runner.js'
import { VirtualClock } from '../../fixtures/virtual-clock.js'

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
    // The words: test/unit/golden-messages-report.test.ts.
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
