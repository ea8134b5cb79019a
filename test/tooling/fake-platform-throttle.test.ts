// The fake platform's throttle over HTTP: the model's refusals answered at once or after the latency, dated, counted.
import { describe, expect, it } from '@jest/globals'
import type { Answer } from '../fixtures/fake-platform-calls.js'
import { authenticate, call, useFreshPlatform } from '../fixtures/fake-platform-calls.js'

const current = useFreshPlatform()
/** Long enough that the order of two answers shows which one waited it out, even on a busy machine. */
const LATENCY_MS = 1000

const list = (token: string) => call('api', 'GET', '/api/tokens', { token })
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Sends a request and waits until the platform has it, so that the next one arrives after
 * it; the answer is still to come.
 */
async function arrived(send: () => Promise<Answer>): Promise<{ answer: Promise<Answer> }> {
  const before = current().requests.length
  const answer = send()
  while (current().requests.length === before) await sleep(1)
  return { answer }
}

/** The labels of the answers, in the order they came. */
async function answeredInOrder(answers: Record<string, Promise<Answer>>): Promise<string[]> {
  const order: string[] = []
  await Promise.all(Object.entries(answers).map(([name, a]) => a.then(() => order.push(name))))
  return order
}

describe("the fake platform's throttle", () => {
  it.each([
    ['seconds', '1'],
    ['0', '0'],
    ['none', undefined],
    ['fractional', '1.00'],
    ['far', '3600'],
  ] as const)(
    'answers 429 over a limit in flight with Retry-After %s, each new throttle counting anew',
    async (retryAfter, header) => {
      const token = await authenticate()
      current().latencyMs = 200
      current().throttle = { limit: { inFlight: 2 }, retryAfter }
      const answers = await Promise.all([list(token), list(token), list(token), list(token)])
      expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 429, 429])
      for (const answer of answers.filter((a) => a.status === 429))
        expect(answer.headers['retry-after']).toBe(header)
      expect(current().maxInFlight).toBe(2)
      expect(current().throttled).toBe(2)
      expect(current().refused).toEqual({ 429: 2, 503: 0 })
      // One at a time stays under the limit; a new throttle starts its count from 0.
      expect((await list(token)).status).toBe(200)
      current().throttle = { limit: { inFlight: 2 }, retryAfter }
      expect(current().throttled).toBe(0)
    },
  )

  it('lets a burst through, then paces requests to the rate, with the wait rounded up to seconds', async () => {
    const token = await authenticate()
    current().throttle = { limit: { perSecond: 10, burst: 2 } }
    const answers = [await list(token), await list(token), await list(token)]
    expect(answers.map((a) => a.status)).toEqual([200, 200, 429])
    expect(answers[2]?.headers['retry-after']).toBe('1')
    await sleep(120)
    expect((await list(token)).status).toBe(200)
  })

  it.each([
    ['at once', ['refused', 'let in']],
    ['after latency', ['let in', 'refused']],
  ] as const)('answers a 429 %s', async (rejects, order) => {
    const token = await authenticate()
    current().latencyMs = LATENCY_MS
    current().throttle = { limit: { inFlight: 1 }, rejects }
    const { answer: letIn } = await arrived(() => list(token))
    const { answer: refused } = await arrived(() => list(token))
    expect(await answeredInOrder({ 'let in': letIn, refused })).toEqual(order)
    expect([(await letIn).status, (await refused).status]).toEqual([200, 429])
  })

  it.each([
    [true, 429],
    [false, 200],
  ] as const)(
    'counts a request being turned away in flight until it is answered: %s',
    async (rejectedInFlight, next) => {
      const token = await authenticate()
      current().throttle = { limit: { inFlight: 1 }, rejectedInFlight, retryAfter: 'none' }
      current().latencyMs = LATENCY_MS
      const { answer: first } = await arrived(() => list(token))
      // The one turned away is answered a second after the first.
      current().latencyMs = 2 * LATENCY_MS
      const { answer: turnedAway } = await arrived(() => list(token))
      current().latencyMs = 0
      expect((await first).status).toBe(200)
      // The first has left; the one turned away is still being answered.
      expect((await list(token)).status).toBe(next)
      expect((await turnedAway).status).toBe(429)
      expect((await list(token)).status).toBe(200)
    },
  )

  it('answers 503 to the API in an outage, after the latency, timed from when the throttle is set', async () => {
    const token = await authenticate()
    // Answered in this order whatever the load: only an outage answered at once would not be.
    current().latencyMs = 300
    const { answer: before } = await arrived(() => list(token))
    current().throttle = { outages: [{ fromMs: 0, untilMs: 60_000 }] }
    const { answer: during } = await arrived(() => list(token))
    expect(await answeredInOrder({ before, during })).toEqual(['before', 'during'])
    expect([(await before).status, (await during).status]).toEqual([200, 503])
    expect(current().refused).toEqual({ 429: 0, 503: 1 })
    expect(current().throttled).toBe(0)
    // The auth endpoint is not throttled.
    await authenticate()
  })

  it("dates a refusal when it is decided: a Retry-After date read against the Date header tells the wait, on the platform's clock", async () => {
    const token = await authenticate()
    current().clockOffsetMs = 3_600_000
    current().throttle = { limit: { perSecond: 0.5, burst: 1 }, retryAfter: 'date' }
    expect((await list(token)).status).toBe(200)
    // A second of latency: an answer dated when sent would be a second later than decided.
    current().latencyMs = 1000
    const { status, headers } = await list(token)
    expect(status).toBe(429)
    const told = Date.parse(String(headers['retry-after'])) - Date.parse(String(headers.date))
    expect(told).toBe(2000)
    // Against the runner's clock it would be an hour off.
    expect(Date.parse(String(headers['retry-after'])) - Date.now()).toBeGreaterThan(3_000_000)
  })
})
