import { describe, expect, it } from '@jest/globals'
import { RequestError, ThrottledError } from '../../../../src/shared/errors.js'
import { TransportError } from '../../../../src/platform/http.js'
import { loop, readStatus, REQUEST } from '../../../fixtures/call-loop.js'
import { thrown } from '../../../fixtures/golden.js'
import { reset } from '../../../fixtures/transport.js'

describe('CallLoop', () => {
  it('sends once on success, with the access token of the API', async () => {
    const { callLoop, transport, clock } = loop([{ status: 200, json: [] }])
    await expect(callLoop.call('api', REQUEST, readStatus)).resolves.toBe(200)
    expect(transport.sent).toHaveLength(1)
    expect(transport.sent[0]?.request.headers.Authorization).toBe('Bearer access-1')
    expect(clock.sleeps).toEqual([])
  })

  it('sends no access token to the auth service', async () => {
    const { callLoop, transport } = loop([{ status: 200, json: {} }])
    await callLoop.call('auth', REQUEST, readStatus)
    expect(transport.sent[0]?.request.headers).not.toHaveProperty('Authorization')
    expect(transport.sent[0]?.target).toBe('auth')
  })

  it('retries a transient failure after a backoff wait, saying so', async () => {
    const { callLoop, transport, clock, log } = loop([{ status: 503 }, reset(), { status: 200 }])
    await expect(callLoop.call('api', REQUEST, readStatus)).resolves.toBe(200)
    expect(transport.sent).toHaveLength(3)
    expect(clock.sleeps).toEqual([500, 1000])
    expect(log.lines).toContain(
      `info: GET ${REQUEST.url} answered 503 (attempt 1 of 4); retrying in 0.5 s.`,
    )
  })

  describe('a request a pool sends (pooled)', () => {
    const scheduled = (attemptsUsed: number) => ({ ...readStatus, pooled: { attemptsUsed } })

    it('hands a 429 back at once, with its Retry-After and the attempts used', async () => {
      const { callLoop, transport, clock } = loop([
        { status: 429, headers: { 'Retry-After': '3' } },
      ])
      const error = await callLoop.call('api', REQUEST, scheduled(0)).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(ThrottledError)
      expect(error).toMatchObject({
        status: 429,
        throttle: { waitMs: 3000, attemptsUsed: 1, guessed: false, last: false },
      })
      // What it was told to wait is in what it says: a cleanup that leaves it names it.
      expect((error as Error).message).toBe(
        `GET ${REQUEST.url} answered 429 (attempt 1 of 4, Retry-After: 3).`,
      )
      // Nothing waited here, nothing sent again: the slot is the pool's to give.
      expect(clock.sleeps).toEqual([])
      expect(transport.sent).toHaveLength(1)
    })

    it('counts the attempts of earlier sends: the last one is a final failure', async () => {
      const { callLoop } = loop([{ status: 429 }])
      const third = await callLoop.call('api', REQUEST, scheduled(2)).catch((e: unknown) => e)
      // Without Retry-After, its wait is its backoff: 2 s for a third attempt (no guess for the
      // pool to drop: without Retry-After, a request turned away again waits its own backoff).
      // Its next send, the fourth, is its last: the pool keeps room for it.
      expect(third).toMatchObject({
        throttle: { waitMs: 2000, attemptsUsed: 3, guessed: false, last: true },
      })
      const { callLoop: first } = loop([{ status: 429 }])
      const once = await first.call('api', REQUEST, scheduled(0)).catch((e: unknown) => e)
      // A first 429 that says nothing of when: its backoff is only a guess (the pool may drop it).
      expect(once).toMatchObject({ throttle: { waitMs: 500, attemptsUsed: 1, guessed: true } })
      const { callLoop: last } = loop([{ status: 429 }])
      const fourth = await last.call('api', REQUEST, scheduled(3)).catch((e: unknown) => e)
      expect(fourth).not.toBeInstanceOf(ThrottledError)
      expect((fourth as Error).message).toBe(`GET ${REQUEST.url} answered 429 (attempt 4 of 4).`)
    })

    it('asks one turned away again to wait the backoff of the retry before at least: the platform may have changed', async () => {
      const told0 = { status: 429, headers: { 'Retry-After': '0' } }
      const { callLoop } = loop([told0])
      const second = await callLoop.call('api', REQUEST, scheduled(1)).catch((e: unknown) => e)
      // Retry-After 0, but a second 429: the backoff of a first retry, 0.5 s (jitter 1), not
      // its own 1 s, which held a whole cleanup's end for this one revoke.
      expect(second).toMatchObject({ throttle: { waitMs: 500, attemptsUsed: 2 } })
      const { callLoop: third } = loop([told0])
      const again = await third.call('api', REQUEST, scheduled(2)).catch((e: unknown) => e)
      expect(again).toMatchObject({ throttle: { waitMs: 1000, attemptsUsed: 3 } })
      // A floor, not a sum: a longer told wait is kept as told, a shorter one raised to it.
      for (const [told, waitMs] of [
        ['3', 3000],
        ['0.2', 500],
      ] as const) {
        const { callLoop: other } = loop([{ status: 429, headers: { 'Retry-After': told } }])
        const answer = await other.call('api', REQUEST, scheduled(1)).catch((e: unknown) => e)
        expect(answer).toMatchObject({ throttle: { waitMs, attemptsUsed: 2 } })
      }
      const { callLoop: first } = loop([told0])
      const once = await first.call('api', REQUEST, scheduled(0)).catch((e: unknown) => e)
      expect(once).toMatchObject({ throttle: { waitMs: 0, attemptsUsed: 1, guessed: false } })
    })

    it('still waits out other transient failures in place, within the same attempts', async () => {
      const { callLoop, clock } = loop([{ status: 503 }, { status: 200 }])
      await expect(callLoop.call('api', REQUEST, scheduled(1))).resolves.toBe(200)
      expect(clock.sleeps).toEqual([1000])
    })
  })

  it('waits as Retry-After asks', async () => {
    const { callLoop, clock } = loop([
      { status: 429, headers: { 'Retry-After': '7' } },
      { status: 200 },
    ])
    await callLoop.call('api', REQUEST, readStatus)
    expect(clock.sleeps).toEqual([7000])
  })

  it('sends a request at most retries + 1 times, then fails naming the last attempt', async () => {
    const { callLoop, transport } = loop(
      Array.from({ length: 5 }, () => ({ status: 502 })),
      {
        retries: 2,
      },
    )
    const error = await callLoop.call('api', REQUEST, readStatus).catch((e: unknown) => e)
    expect(transport.sent).toHaveLength(3)
    expect(error).toBeInstanceOf(RequestError)
    expect((error as RequestError).message).toBe(
      `GET ${REQUEST.url} answered 502 (attempt 3 of 3).`,
    )
    expect((error as RequestError).status).toBe(502)
  })

  it('fails at once on a refusal, quoting the server detail', async () => {
    const { callLoop, transport } = loop([
      { status: 400, statusText: 'Bad Request', json: { error: 'bad name' } },
    ])
    await expect(callLoop.call('api', REQUEST, readStatus)).rejects.toThrow(
      `GET ${REQUEST.url} answered 400 Bad Request: bad name.`,
    )
    expect(transport.sent).toHaveLength(1)
  })

  it('renews a rejected access token once, then gives up', async () => {
    const ok = loop([{ status: 401 }, { status: 200 }])
    await expect(ok.callLoop.call('api', REQUEST, readStatus)).resolves.toBe(200)
    expect(ok.rejected).toEqual(['access-1'])
    expect(ok.transport.sent[1]?.request.headers.Authorization).toBe('Bearer access-2')

    const refused = loop([{ status: 401 }, { status: 401 }, { status: 200 }])
    await expect(refused.callLoop.call('api', REQUEST, readStatus)).rejects.toThrow(
      /^the access token was rejected: GET .* answered 401 even after authenticating again\.$/,
    )
    expect(refused.transport.sent).toHaveLength(2)
  })

  it('a renewal uses up no attempt: with one retry, a 401 then a 503 are still followed by a send', async () => {
    const { callLoop, transport, log } = loop([{ status: 401 }, { status: 503 }, { status: 200 }], {
      retries: 1,
    })
    await expect(callLoop.call('api', REQUEST, readStatus)).resolves.toBe(200)
    expect(transport.sent).toHaveLength(3)
    expect(log.lines).toContain(
      `info: GET ${REQUEST.url} answered 503 (attempt 1 of 2); retrying in 0.5 s.`,
    )
  })

  it('asks whether a failure that may have taken effect did, before sending again', async () => {
    const { callLoop, transport } = loop([{ status: 502 }, { status: 200 }])
    const asked: string[] = []
    const found = await callLoop.call('api', REQUEST, {
      read: () => 'sent again',
      onUncertain: (failure) => {
        asked.push(failure)
        return Promise.resolve('found it')
      },
    })
    expect(found).toBe('found it')
    expect(asked).toEqual([`GET ${REQUEST.url} answered 502 (attempt 1 of 4)`])
    expect(transport.sent).toHaveLength(1)
  })

  it('does not ask after a failure that says nothing was done (429)', async () => {
    const { callLoop } = loop([{ status: 429 }, { status: 200 }])
    const asked: string[] = []
    await callLoop.call('api', REQUEST, {
      ...readStatus,
      onUncertain: (failure) => {
        asked.push(failure)
        return Promise.resolve(undefined)
      },
    })
    expect(asked).toEqual([])
  })

  it('tells onWritten each time an attempt is written whole, and only then', async () => {
    const { callLoop } = loop([
      new TransportError('refused (ECONNREFUSED)', 'ECONNREFUSED', false),
      { status: 200 },
    ])
    let written = 0
    await callLoop.call('api', REQUEST, {
      ...readStatus,
      onWritten: () => {
        written++
      },
    })
    expect(written).toBe(1)
  })

  it('marks a failure that may pass as transient, and one that will not as not', async () => {
    const busy = await loop([{ status: 503 }], { retries: 0 })
      .callLoop.call('api', REQUEST, readStatus)
      .catch((e: unknown) => e)
    expect(busy).toMatchObject({ status: 503, transient: true })
    const cert = await loop([
      new TransportError('certificate not trusted', 'CERT_UNTRUSTED', false),
    ])
      .callLoop.call('api', REQUEST, readStatus)
      .catch((e: unknown) => e)
    expect(cert).toMatchObject({ transient: false })
    const refused = await loop([{ status: 404 }])
      .callLoop.call('api', REQUEST, readStatus)
      .catch((e: unknown) => e)
    expect(refused).toMatchObject({ status: 404, transient: false })
  })

  it('masks secrets in any answer, a failure included, and scrubs them from the message', async () => {
    const { callLoop, masked } = loop([
      { status: 400, json: { error: 'no: tok-1', tokenValue: 'tok-1' } },
    ])
    await expect(callLoop.call('api', REQUEST, readStatus)).rejects.toThrow(': no: ***.')
    // The access token it sent, then the token value in the answer.
    expect(masked).toEqual(['access-1', 'tok-1'])
  })

  it('reads the platform clock from the Date header', async () => {
    const { callLoop, clock } = loop([
      { status: 200, headers: { Date: 'Sun, 22 Nov 2026 12:00:10 GMT' } },
    ])
    expect(callLoop.platformTime(clock.now())).toBeUndefined()
    await callLoop.call('api', REQUEST, readStatus)
    // Ours is 12:00:00; the platform's 12:00:10 and half a second (the header's resolution).
    expect(callLoop.platformTime(clock.now())).toBe(clock.now() + 10_500)
  })

  it('does not take the auth service’s Date header for the API’s clock: another host', async () => {
    const { callLoop, clock } = loop([
      { status: 200, headers: { Date: 'Sun, 22 Nov 2026 12:00:10 GMT' } },
    ])
    await callLoop.call('auth', REQUEST, readStatus)
    expect(callLoop.platformTime(clock.now())).toBeUndefined()
  })

  describe('hints', () => {
    it('names the timeout input and its value after a timeout', async () => {
      const { callLoop } = loop(
        [new TransportError('no answer within 5 s (timeout)', 'ETIMEDOUT', true)],
        {
          retries: 0,
        },
      )
      // The words: test/unit/platform/failures/golden-messages-call-loop.test.ts.
      const message = await thrown(() => callLoop.call('api', REQUEST, readStatus))
      expect(message).toContain(`GET ${REQUEST.url} got no answer`)
      expect(message).toContain('The timeout input allows 5 s per request')
    })

    it.each([
      ['api', 'ECONNREFUSED', 'baseUrl'],
      ['auth', 'ENOTFOUND', 'authUrl'],
    ] as const)(
      'points a %s request refused with %s at %s and the runner network',
      async (target, code, input) => {
        const { callLoop } = loop([new TransportError(`refused (${code})`, code, false)], {
          retries: 0,
        })
        const message = await thrown(() => callLoop.call(target, REQUEST, readStatus))
        expect(message).toContain(`(${code})`)
        expect(message).toContain(`Check the ${input} input (https://api.example.com)`)
        expect(message).toContain('HTTPS_PROXY, NO_PROXY')
      },
    )

    it('adds no hint to an answer', async () => {
      const { callLoop } = loop([{ status: 400 }])
      const error = await callLoop.call('api', REQUEST, readStatus).catch((e: unknown) => e)
      expect((error as Error).message).toBe(`GET ${REQUEST.url} answered 400.`)
    })
  })

  it('scrubs and shortens a reason phrase like a body', async () => {
    const { callLoop, secrets } = loop([
      { status: 400, statusText: 'Bad access-1\r\nX ' + 'y'.repeat(100) },
    ])
    secrets.add('access-1')
    const error = await callLoop.call('api', REQUEST, readStatus).catch((e: unknown) => e)
    // access-1 is the access token the loop sent; the log masks it, and so do messages.
    expect((error as Error).message).toMatch(/^GET \S+ answered 400 Bad \*\*\* X y+\.\.\.$/)
  })
})
