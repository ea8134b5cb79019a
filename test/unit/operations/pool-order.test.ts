// The pool's queue, send by send: a throttled item waits its own time and goes back in line
// by it, and one whose wait would outlast the step is left.
import { describe, expect, it } from '@jest/globals'
import { Pool, type Sent } from '../../../src/operations/pool.js'
import { Deadline } from '../../../src/shared/time.js'
import { recordingRunner } from '../../fixtures/runner.js'
import { VirtualClock } from '../../fixtures/virtual-clock.js'

/**
 * Runs items through a pool of one at a time; each send takes 20 ms and gets the answer
 * `answer` gives for the item and its attempt (1-based): a Retry-After in ms, or done.
 */
async function sends(
  items: string[],
  answer: (item: string, attempt: number) => number | 'done',
  totalMs = 0,
) {
  const clock = new VirtualClock(0, 0)
  const log: string[] = []
  const send = async (item: string, attemptsUsed: number): Promise<Sent<string>> => {
    const attempt = attemptsUsed + 1
    log.push(`${clock.now()} ${item}${attempt}`)
    await clock.sleep(20)
    const got = answer(item, attempt)
    return got === 'done'
      ? { done: `revoked ${item}` }
      : { throttled: { waitMs: got, attemptsUsed: attempt } }
  }
  const pool = new Pool(1, clock, new Deadline(clock, totalMs), recordingRunner())
  const results = await clock.run(pool.run(items, send, (item) => `left ${item}`))
  return { log, results, ms: clock.now() }
}

describe('Pool: the queue of throttled items', () => {
  it('sends a throttled item again at its own time, the soonest first, unsent items meanwhile', async () => {
    const waits: Record<string, number> = { a: 100, b: 50 }
    const { log, results } = await sends(['a', 'b', 'c'], (item, attempt) =>
      attempt === 1 && item in waits ? (waits[item] ?? 0) : 'done',
    )
    // a turned away at 20 (back at 120), b at 40 (back at 90): c goes meanwhile, then b, a.
    expect(log).toEqual(['0 a1', '20 b1', '40 c1', '90 b2', '120 a2'])
    expect(results).toEqual(['revoked a', 'revoked b', 'revoked c'])
  })

  it('sends a throttled item, its time come, before the items never sent', async () => {
    const { log } = await sends(['a', 'b', 'c', 'd', 'e'], (item, attempt) =>
      item === 'a' && attempt === 1 ? 30 : 'done',
    )
    expect(log).toEqual(['0 a1', '20 b1', '40 c1', '60 a2', '80 d1', '100 e1'])
  })

  it('sends two throttled items back at the same time in the order they were turned away', async () => {
    const waits: Record<string, number> = { a: 40, b: 20 }
    const { log } = await sends(['a', 'b', 'c'], (item, attempt) =>
      attempt === 1 && item in waits ? (waits[item] ?? 0) : 'done',
    )
    // Both are back at 60.
    expect(log).toEqual(['0 a1', '20 b1', '40 c1', '60 a2', '80 b2'])
  })

  it('leaves an item whose wait would end when the step has run out, sending the rest', async () => {
    const { log, results, ms } = await sends(
      ['a', 'b'],
      (item, attempt) => (item === 'a' && attempt === 1 ? 80 : 'done'),
      100,
    )
    // a is back at 100, when the 100 ms of the step end: it is left at once, never sent again,
    // and the pool ends with b's answer rather than wait for the end of the step.
    expect(log).toEqual(['0 a1', '20 b1'])
    expect(results).toEqual(['left a', 'revoked b'])
    expect(ms).toBe(40)
  })

  it('sends one again whose wait ends just before the step does', async () => {
    const { log, results } = await sends(
      ['a', 'b'],
      (item, attempt) => (item === 'a' && attempt === 1 ? 79 : 'done'),
      100,
    )
    expect(log).toEqual(['0 a1', '20 b1', '99 a2'])
    expect(results).toEqual(['revoked a', 'revoked b'])
  })
})
