// The pool of a cleanup's revokes, its order, waits, attempts and deadlines, in virtual time (limit.test.ts: what it learns of a limit in flight; test/simulation/ runs the whole cleanup against the family of platforms).
import { describe, expect, it } from '@jest/globals'
import { Pool, type Sent } from '../../../../src/operations/pool.js'
import { Deadline } from '../../../../src/shared/time.js'
import { recordingRunner } from '../../../fixtures/runner.js'
import { VirtualClock } from '../../../fixtures/virtual-clock.js'
import { letters, limitedGateway } from '../../../fixtures/pool.js'

/**
 * Items through a pool of `concurrency`; each send takes 20 ms and gets what `answer` says for
 * the item and its attempt (1-based): a 429 asking to wait so many ms (a guess of the call
 * loop's, on a first attempt, when `guessed`; the next attempt the last of `attempts`, when
 * given), or done.
 */
async function scripted(
  items: string[],
  answer: (item: string, attempt: number) => number | 'done',
  options: {
    concurrency?: number
    totalMs?: number
    cancelAtMs?: number
    guessed?: boolean
    attempts?: number
  } = {},
) {
  const { concurrency = 1, totalMs = 0, cancelAtMs, guessed = false, attempts } = options
  const clock = new VirtualClock(0, 0)
  const sends: { at: number; item: string; attempt: number; answer: number | 'done' }[] = []
  const send = async (item: string, attemptsUsed: number): Promise<Sent<string>> => {
    const attempt = attemptsUsed + 1
    const got = answer(item, attempt)
    sends.push({ at: clock.now(), item, attempt, answer: got })
    await clock.sleep(20)
    if (got === 'done') return { done: `revoked ${item}` }
    const throttle = { waitMs: got, attemptsUsed: attempt, why: `429 to ${item}.` }
    const last = attempt + 1 === attempts
    return { throttled: { ...throttle, guessed: guessed && attempt === 1, last } }
  }
  const log = recordingRunner()
  const deadline = new Deadline(clock, totalMs)
  if (cancelAtMs !== undefined)
    void clock.sleep(cancelAtMs).then(() => {
      deadline.cancel('SIGINT')
    })
  const pool = new Pool(concurrency, clock, deadline, log)
  const left = (item: string, throttle?: { why: string }) =>
    `left ${item}${throttle ? `: ${throttle.why}` : ''}`
  const results = await clock.run(pool.run(items, send, left))
  return { sends, results, log: log.lines, ms: clock.now() }
}

describe("the pool's order, waits and ends", () => {
  it('runs every item at most `concurrency` at a time, results in item order, no time lost', async () => {
    const { sends, results, ms } = await scripted(letters(8), () => 'done', { concurrency: 4 })
    expect(results).toEqual(letters(8).map((i) => `revoked ${i}`))
    expect(sends.map((s) => s.at)).toEqual([0, 0, 0, 0, 20, 20, 20, 20])
    expect(ms).toBe(40)
  })
  it('paces a 429 that came with nothing else in flight, and says so once, though it slows again', async () => {
    const { log, results, sends } = await scripted(letters(6), (item, attempt) =>
      'ae'.includes(item) && attempt === 1 ? 50 : 'done',
    )
    expect(results).toEqual(letters(6).map((i) => `revoked ${i}`))
    // Sent at the pace a's 429 set, e's cut it again: the gap after it is the longer.
    const at = (item: string) => sends.find((s) => s.item === item)?.at ?? 0
    expect(at('f') - at('e')).toBeGreaterThan(at('e') - at('d'))
    expect(log.filter((line) => line.startsWith('info'))).toEqual([
      'info: The platform limits the rate of requests: sending revokes a little slower than it lets them in.',
    ])
  })

  it('says so at the first cut of the pace, when there is no other', async () => {
    const { log } = await scripted(letters(3), (item, attempt) =>
      item === 'a' && attempt === 1 ? 50 : 'done',
    )
    expect(log.filter((line) => line.startsWith('info'))).toEqual([
      'info: The platform limits the rate of requests: sending revokes a little slower than it lets them in.',
    ])
  })

  it('waits a guessed backoff for a 429 read as a rate: only one read as the limit in flight goes at the next free slot', async () => {
    // Nothing else in flight: a rate. No Retry-After, so the call loop guessed the 500 ms.
    const answer = (item: string, attempt: number) => (item === 'a' && attempt === 1 ? 500 : 'done')
    const { sends } = await scripted(letters(3), answer, { guessed: true })
    const [first, again] = sends.filter((s) => s.item === 'a')
    expect((again?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(20 + 500)
  })

  it('sends a throttled item again not before its wait, and goes on with the others meanwhile', async () => {
    const { sends, results } = await scripted(letters(5), (item, attempt) =>
      item === 'a' && attempt === 1 ? 30 : 'done',
    )
    const [first, again] = sends.filter((s) => s.item === 'a')
    expect((again?.at ?? 0) - (first?.at ?? 0)).toBeGreaterThanOrEqual(20 + 30)
    expect(sends.map((s) => s.item)).toEqual(['a', 'b', 'c', 'd', 'e', 'a'])
    expect(results).toEqual(letters(5).map((i) => `revoked ${i}`))
  })

  it('sends a throttled item first in line once the platform let one in after its 429 and no step is tried', async () => {
    // A limit in flight of 2: c is turned away, d and e wait behind it once its wait is over.
    const clock = new VirtualClock(0, 0)
    const { send, seen } = limitedGateway(clock, { limit: 2, waitMs: 10 })
    const pool = new Pool(3, clock, new Deadline(clock, 0), recordingRunner())
    await clock.run(pool.run(letters(6), send, () => 'left'))
    expect(seen.order).toEqual(['a', 'b', 'c', 'c', 'd', 'e', 'f'])
  })

  it('sends throttled items again in the order their waits end', async () => {
    const waits: Record<string, number> = { a: 200, b: 40 }
    const { sends } = await scripted(letters(6), (item, attempt) =>
      attempt === 1 && item in waits ? (waits[item] ?? 0) : 'done',
    )
    expect(sends.filter((s) => s.attempt === 2).map((s) => s.item)).toEqual(['b', 'a'])
  })

  it('sends no item more than it has attempts: the send ends one on its last', async () => {
    const { sends, results } = await scripted(
      letters(3),
      (item, attempt) => (item === 'b' && attempt < 4 ? 0 : 'done'),
      {
        concurrency: 2,
      },
    )
    expect(sends.filter((s) => s.item === 'b')).toHaveLength(4)
    expect(results).toEqual(letters(3).map((i) => `revoked ${i}`))
  })

  it("sends an item's last attempt alone: nothing else in flight", async () => {
    // 2 in flight, concurrency 4, 2 attempts: c and d are turned away, their next send the last.
    const run = async (attempts?: number) => {
      const clock = new VirtualClock(0, 0)
      const { send, seen } = limitedGateway(clock, { limit: 2, ...(attempts && { attempts }) })
      const pool = new Pool(4, clock, new Deadline(clock, 0), recordingRunner())
      expect(await clock.run(pool.run(letters(8), send, () => 'left'))).toEqual(letters(8))
      return seen.sends.filter((s) => s.attempt === 2)
    }
    const last = await run(2)
    expect(last.map((s) => `${s.item}: ${s.inFlight}`)).toEqual(['c: 0', 'd: 0', 'h: 0'])
    // With attempts to spare, d went again beside c.
    const spare = await run()
    expect(spare.map((s) => `${s.item}: ${s.inFlight}`)).toEqual(['c: 0', 'd: 1'])
  })

  it('leaves an item whose wait ends after the deadline, with what its 429 said, and sends the rest', async () => {
    const { sends, results } = await scripted(
      ['a', 'b'],
      (item, attempt) => (item === 'a' && attempt === 1 ? 80 : 'done'),
      {
        totalMs: 100,
      },
    )
    expect(sends.map((s) => `${s.item}${s.attempt}`)).toEqual(['a1', 'b1'])
    expect(results).toEqual(['left a: 429 to a.', 'revoked b'])
  })

  it('starts nothing once the deadline ran out, and leaves what was not sent', async () => {
    const { sends, results } = await scripted(letters(20), () => 'done', {
      concurrency: 2,
      totalMs: 100,
    })
    expect(sends.map((s) => s.at)).toEqual([0, 0, 20, 20, 40, 40, 60, 60, 80, 80])
    expect(results.filter((r) => r.startsWith('left'))).toHaveLength(10)
  })

  it('after a cancel starts nothing more: what is in flight ends, the rest is left', async () => {
    const { sends, results, ms } = await scripted(letters(12), () => 'done', {
      concurrency: 4,
      cancelAtMs: 30,
    })
    expect(sends).toHaveLength(8)
    expect(results.slice(8)).toEqual(
      letters(12)
        .slice(8)
        .map((i) => `left ${i}`),
    )
    expect(ms).toBe(40)
  })

  it('wakes at the cancel: an item waiting for its wait is left, not waited for', async () => {
    const { results, ms } = await scripted(['a'], (_, attempt) => (attempt === 1 ? 1000 : 'done'), {
      cancelAtMs: 100,
    })
    expect(results).toEqual(['left a'])
    expect(ms).toBe(100)
  })

  it('fails with the error of a send that throws, starting nothing more', async () => {
    const clock = new VirtualClock()
    const pool = new Pool(1, clock, new Deadline(clock, 0), recordingRunner())
    const sent: string[] = []
    const send = (item: string): Promise<Sent<string>> => {
      sent.push(item)
      return item === 'b' ? Promise.reject(new Error('a bug')) : Promise.resolve({ done: item })
    }
    await expect(clock.run(pool.run(letters(5), send, () => 'left'))).rejects.toThrow('a bug')
    expect(sent).toEqual(['a', 'b'])
  })
})
