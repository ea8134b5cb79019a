// CallLoop under totalTimeout: no attempt starts past it, no wait begins that would end past
// it, and an attempt gets at most the time left. Time is a FakeClock.
import { describe, expect, it } from '@jest/globals'
import type { AccessTokens } from '../../../../src/platform/call-loop.js'
import { DeadlineError, RequestError } from '../../../../src/shared/errors.js'
import { TransportError } from '../../../../src/platform/http.js'
import { loop, readStatus, REQUEST } from '../../../fixtures/call-loop.js'

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
    // The words: test/unit/platform/call-loop/golden-messages.test.ts.
    const { message } = error as Error
    expect(message).toContain(`GET ${REQUEST.url} answered 429`)
    expect(message).toContain('totalTimeout (10 s)')
    expect(message).toContain('wait 30.0 s')
    expect(transport.sent).toHaveLength(1)
    expect(clock.sleeps).toEqual([])
  })

  it('says a 502 or a 503 it has no time to try again may have taken effect; a 429 says nothing was done', async () => {
    // 600 ms of the 1 s spent already: the first retry's 500 ms wait would pass the end.
    const bad = loop([{ status: 502 }], { totalMs: 1_000 })
    bad.clock.advance(600)
    const maybe = await bad.callLoop.call('api', REQUEST, readStatus).catch((e: unknown) => e)
    expect((maybe as DeadlineError).message).toContain('answered 502')
    expect((maybe as DeadlineError).message).toContain('It may have taken effect')
    expect((maybe as DeadlineError).mayHaveTakenEffect).toBe(true)
    const gateway = loop([{ status: 503 }], { totalMs: 1_000 })
    gateway.clock.advance(600)
    const also = await gateway.callLoop.call('api', REQUEST, readStatus).catch((e: unknown) => e)
    expect((also as DeadlineError).mayHaveTakenEffect).toBe(true)
    const busy = loop([{ status: 429 }], { totalMs: 1_000 })
    busy.clock.advance(600)
    const not = await busy.callLoop.call('api', REQUEST, readStatus).catch((e: unknown) => e)
    expect((not as DeadlineError).message).toContain('answered 429')
    expect((not as DeadlineError).message).not.toContain('may have taken effect')
    expect((not as DeadlineError).mayHaveTakenEffect).toBe(false)
  })

  it('blames the budget for a timeout it cut short, even if the timer fired a moment early', async () => {
    // The transport does not move the clock: the timer fired before the clock reached the end.
    const { callLoop, clock } = loop([timeout(), { status: 200 }], { totalMs: 2_000 })
    const error = await callLoop.call('api', REQUEST, readStatus).catch((e: unknown) => e)
    expect(clock.now() - Date.UTC(2026, 10, 22, 12)).toBe(0)
    expect(error).toBeInstanceOf(DeadlineError)
    expect((error as DeadlineError).mayHaveTakenEffect).toBe(true)
  })

  it('retries a timeout of the timeout input, which the budget did not cut', async () => {
    const { callLoop, transport } = loop([timeout(), { status: 200 }], { totalMs: 60_000 })
    await expect(callLoop.call('api', REQUEST, readStatus)).resolves.toBe(200)
    expect(transport.sent.map((s) => s.timeoutMs)).toEqual([5_000, 5_000])
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

  it('counts the time authentication took: the attempt gets only what is left after it', async () => {
    const { callLoop, transport } = loop([{ status: 200 }], {
      totalMs: 1_000,
      accessTokens: (clock) =>
        slowTokens(() => {
          clock.advance(600)
        }),
    })
    await expect(callLoop.call('api', REQUEST, readStatus)).resolves.toBe(200)
    expect(transport.sent.map((s) => s.timeoutMs)).toEqual([400])
  })

  it('sends no API request when authentication used up the budget', async () => {
    const { callLoop, transport } = loop([{ status: 200 }], {
      totalMs: 1_000,
      accessTokens: (clock) =>
        slowTokens(() => {
          clock.advance(1_000)
        }),
    })
    const error = await callLoop.call('api', REQUEST, readStatus).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(DeadlineError)
    expect((error as Error).message).toBe(
      `totalTimeout (1 s) ran out before GET ${REQUEST.url} was sent.`,
    )
    expect(transport.sent).toEqual([])
    expect((error as DeadlineError).mayHaveTakenEffect).toBe(false)
  })

  it('sends nothing once it has run out', async () => {
    const { callLoop, transport, clock } = loop([{ status: 200 }], { totalMs: 1_000 })
    clock.advance(1_000)
    await expect(callLoop.call('api', REQUEST, readStatus)).rejects.toThrow(
      `totalTimeout (1 s) ran out before GET ${REQUEST.url} was sent.`,
    )
    expect(transport.sent).toHaveLength(0)
  })

  it('sends an attempt 1 ms before the end, with that 1 ms to answer', async () => {
    const { callLoop, transport, clock } = loop([{ status: 200 }], { totalMs: 1_000 })
    clock.advance(999)
    await expect(callLoop.call('api', REQUEST, readStatus)).resolves.toBe(200)
    expect(transport.sent.map((s) => s.timeoutMs)).toEqual([1])
  })

  it('gives a later attempt only what earlier attempts and waits left', async () => {
    const { callLoop, transport, clock } = loop(
      [{ status: 503, takesMs: 1_000 }, { status: 200 }],
      { totalMs: 6_000 },
    )
    transport.clock = clock
    await expect(callLoop.call('api', REQUEST, readStatus)).resolves.toBe(200)
    // 6 s: the first attempt took 1 s, the wait 0.5 s; 4.5 s left, under the 5 s timeout.
    expect(clock.sleeps).toEqual([500])
    expect(transport.sent.map((s) => s.timeoutMs)).toEqual([5_000, 4_500])
  })

  it('begins a wait that ends 1 ms before the end, and gives the next attempt that 1 ms', async () => {
    const { callLoop, transport, clock } = loop([{ status: 503 }, { status: 200 }], {
      totalMs: 501,
    })
    await expect(callLoop.call('api', REQUEST, readStatus)).resolves.toBe(200)
    expect(clock.sleeps).toEqual([500])
    expect(transport.sent.map((s) => s.timeoutMs)).toEqual([501, 1])
  })

  it('begins no wait that would end exactly at the end: no time would be left to try', async () => {
    const { callLoop, transport, clock } = loop([{ status: 503 }, { status: 200 }], {
      totalMs: 500,
    })
    const error = await callLoop.call('api', REQUEST, readStatus).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(DeadlineError)
    const { message } = error as DeadlineError
    expect(message).toContain(`GET ${REQUEST.url} answered 503`)
    expect(message).toContain('totalTimeout (1 s) leaves no time to wait 0.5 s')
    expect((error as DeadlineError).status).toBe(503)
    expect(clock.sleeps).toEqual([])
    expect(transport.sent).toHaveLength(1)
  })

  it('fails naming totalTimeout when an attempt times out because the budget ran out', async () => {
    const { callLoop, transport, clock } = loop([timeout(), { status: 200 }], { totalMs: 2_000 })
    transport.clock = clock
    const error = await callLoop.call('api', REQUEST, readStatus).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(DeadlineError)
    const { message } = error as DeadlineError
    expect(message).toContain(`totalTimeout (2 s) ran out while GET ${REQUEST.url} waited`)
    expect(message).toContain('It may have taken effect')
    // Sent, and its answer lost: whether it took effect is unknown.
    expect((error as DeadlineError).mayHaveTakenEffect).toBe(true)
    expect(transport.sent.map((s) => s.timeoutMs)).toEqual([2_000])
  })

  it('says a timeout the budget cut before the request was written took no effect', async () => {
    const unsent = new TransportError('no answer within 5 s (timeout)', 'ETIMEDOUT', false)
    const { callLoop } = loop([unsent], { totalMs: 2_000 })
    const error = await callLoop.call('api', REQUEST, readStatus).catch((e: unknown) => e)
    expect((error as DeadlineError).message).toBe(
      `totalTimeout (2 s) ran out while GET ${REQUEST.url} waited for an answer.`,
    )
    expect((error as DeadlineError).mayHaveTakenEffect).toBe(false)
  })

  it('blames the connection, not the budget, for a refusal while the budget shortened the timeout', async () => {
    // 2 s left, under the 5 s timeout: only a timeout is the budget's doing.
    const refused = new TransportError('refused (ECONNREFUSED)', 'ECONNREFUSED', false)
    const { callLoop } = loop([refused], { totalMs: 2_000, retries: 0 })
    const error = await callLoop.call('api', REQUEST, readStatus).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RequestError)
    expect(error).not.toBeInstanceOf(DeadlineError)
    expect((error as RequestError).message).toContain('ECONNREFUSED')
    expect((error as RequestError).message).not.toContain('totalTimeout')
  })

  it('retries an attempt that timed out with budget to spare, as any timeout', async () => {
    const { callLoop, transport, clock } = loop([timeout(), { status: 200 }], { totalMs: 20_000 })
    transport.clock = clock
    await expect(callLoop.call('api', REQUEST, readStatus)).resolves.toBe(200)
    // 5 s timed out, 0.5 s waited: 14.5 s left, so the second attempt has its full 5 s.
    expect(transport.sent.map((s) => s.timeoutMs)).toEqual([5_000, 5_000])
    expect(clock.sleeps).toEqual([500])
  })

  it('with totalTimeout 0 has no limit: hours later it still sends, and waits as long as asked', async () => {
    const { callLoop, transport, clock } = loop(
      [{ status: 429, headers: { 'Retry-After': '60' } }, { status: 200 }],
      { totalMs: 0 },
    )
    clock.advance(7 * 3_600_000) // past the largest totalTimeout, 21600 s
    await expect(callLoop.call('api', REQUEST, readStatus)).resolves.toBe(200)
    expect(clock.sleeps).toEqual([60_000])
    expect(transport.sent.map((s) => s.timeoutMs)).toEqual([5_000, 5_000])
  })
})

function timeout(): TransportError {
  return new TransportError('no answer within 5 s (timeout)', 'ETIMEDOUT', true)
}

/** Access tokens whose every handing out first runs `takeTime` (an authentication). */
function slowTokens(takeTime: () => void): AccessTokens {
  return {
    accessToken: () => {
      takeTime()
      return Promise.resolve('access-1')
    },
    reject: () => Promise.resolve(),
  }
}
