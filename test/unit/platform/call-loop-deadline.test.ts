// CallLoop under totalTimeout: no attempt starts past it, no wait begins that would end past
// it, and an attempt gets at most the time left. Time is a FakeClock.
import { describe, expect, it } from '@jest/globals'
import { DeadlineError } from '../../../src/platform/errors.js'
import { loop, readStatus, REQUEST } from '../../fixtures/call-loop.js'

describe('CallLoop under totalTimeout', () => {
  it('gives each attempt no more than the time left', async () => {
    const { callLoop, transport } = loop([{ status: 200 }], { totalMs: 2_000 })
    await callLoop.call('api', REQUEST, readStatus)
    expect(transport.sent[0]?.timeoutMs).toBe(2_000)
    const free = loop([{ status: 200 }])
    await free.callLoop.call('api', REQUEST, readStatus)
    expect(free.transport.sent[0]?.timeoutMs).toBe(5_000)
  })

  it('begins no wait that would pass it, and says so', async () => {
    const { callLoop, transport, clock } = loop(
      [{ status: 429, headers: { 'Retry-After': '30' } }, { status: 200 }],
      { totalMs: 10_000 },
    )
    const error = await callLoop.call('api', REQUEST, readStatus).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(DeadlineError)
    expect((error as Error).message).toBe(
      `GET ${REQUEST.url} answered 429 (attempt 1 of 4); totalTimeout (10 s) leaves no time to wait 30.0 s and try again.`,
    )
    expect(transport.sent).toHaveLength(1)
    expect(clock.sleeps).toEqual([])
  })

  it('waits and tries again while there is time, then stops', async () => {
    const { callLoop, transport, clock } = loop(
      [{ status: 503 }, { status: 503 }, { status: 200 }],
      {
        totalMs: 1_000,
      },
    )
    await expect(callLoop.call('api', REQUEST, readStatus)).rejects.toThrow(DeadlineError)
    // 500 ms waited; the next wait (1 s) would pass the deadline.
    expect(clock.sleeps).toEqual([500])
    expect(transport.sent).toHaveLength(2)
  })

  it('sends nothing once it has run out', async () => {
    const { callLoop, transport, clock } = loop([{ status: 200 }], { totalMs: 1_000 })
    clock.advance(1_000)
    await expect(callLoop.call('api', REQUEST, readStatus)).rejects.toThrow(
      `totalTimeout (1 s) ran out before GET ${REQUEST.url} was sent.`,
    )
    expect(transport.sent).toHaveLength(0)
  })
})
