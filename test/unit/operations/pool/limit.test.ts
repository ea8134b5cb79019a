// The pool of a cleanup's revokes and a limit in flight: what it learns from a 429, and how it steps up, in virtual time.
import { describe, expect, it } from '@jest/globals'
import { Pool, type Sent } from '../../../../src/operations/pool.js'
import { Deadline } from '../../../../src/shared/time.js'
import { recordingRunner } from '../../../fixtures/runner.js'
import { VirtualClock } from '../../../fixtures/virtual-clock.js'
import { letters, limitedGateway } from '../../../fixtures/pool.js'

describe("the pool's limit in flight", () => {
  it('learns a limit in flight from a 429 that comes before any request it let in has ended', async () => {
    // 3 in flight taken; a gateway refuses the 4th at once, before the 3 let in end.
    const clock = new VirtualClock(0, 0)
    const { send, seen } = limitedGateway(clock, { limit: 3 })
    const log = recordingRunner()
    const pool = new Pool(8, clock, new Deadline(clock, 0), log)
    const results = await clock.run(pool.run(letters(12), send, () => 'left'))
    expect(results).toEqual(letters(12))
    expect(log.lines).toEqual([
      'info: The platform turned away a revoke with 3 others in flight: sending at most 3 at a time.',
    ])
    // Not 1 at a time, as a pool that counts only the answers come would have it.
    expect(seen.most).toBe(3)
    expect(clock.now()).toBe(80)
  })

  it('says a limit of one in words that read: one other in flight', async () => {
    const clock = new VirtualClock(0, 0)
    const { send, seen } = limitedGateway(clock, { limit: 1 })
    const log = recordingRunner()
    const pool = new Pool(4, clock, new Deadline(clock, 0), log)
    expect(await clock.run(pool.run(letters(6), send, () => 'left'))).toEqual(letters(6))
    expect(log.lines).toEqual([
      'info: The platform turned away a revoke with 1 other in flight: sending at most 1 at a time.',
    ])
    expect(seen.most).toBe(1)
  })

  it('sends one turned away over a limit in flight again within the lowered limit, not after a backoff it was not told', async () => {
    // A gateway refuses past 3 in flight, at once, with no Retry-After: 500 ms is a guess.
    const cleanup = async (guessed: boolean) => {
      const clock = new VirtualClock(0, 0)
      const { send } = limitedGateway(clock, { limit: 3, waitMs: 500 }, guessed)
      const pool = new Pool(8, clock, new Deadline(clock, 0), recordingRunner())
      expect(await clock.run(pool.run(letters(12), send, () => 'left'))).toEqual(letters(12))
      return clock.now()
    }
    expect(await cleanup(true)).toBe(80)
    // Told to wait (a Retry-After), it waits.
    expect(await cleanup(false)).toBeGreaterThanOrEqual(500)
  })

  it('steps the limit up only once the platform had that many at once (a client slower to send than to be answered never fills it)', async () => {
    // Each request takes 10 ms on the wire, one after another, and 1 ms at the platform: it
    // never has two at once. p's 429 at once, with 15 others in flight, sets the limit to 15.
    const clock = new VirtualClock(0, 0)
    let [wire, inFlight, most] = [0, 0, 0]
    const send = async (item: string, attemptsUsed: number): Promise<Sent<string>> => {
      if (item === 'p' && attemptsUsed === 0)
        return { throttled: { waitMs: 0, attemptsUsed: 1, why: '429.' } }
      most = clock.now() > 0 ? Math.max(most, ++inFlight) : ++inFlight
      wire = Math.max(wire, clock.now()) + 10
      await clock.sleep(wire + 1 - clock.now())
      inFlight--
      return { done: item }
    }
    const pool = new Pool(16, clock, new Deadline(clock, 0), recordingRunner())
    await clock.run(pool.run(letters(80), send, () => 'left'))
    expect(most).toBe(15)
  })

  it('tries a step on a request never sent: one turned away is not risked on it while any is left', async () => {
    // A gateway refuses past 2 in flight, at once, told to come back at once; each send takes
    // 25 ms, so a step falls due as the first round's turned away go again: each step's third
    // slot goes to a request never sent, and none is turned away a second time.
    const clock = new VirtualClock(0, 0)
    const { send, seen } = limitedGateway(clock, { limit: 2, workMs: 25 })
    const pool = new Pool(7, clock, new Deadline(clock, 0), recordingRunner())
    await clock.run(pool.run(letters(20), send, () => 'left'))
    expect(Math.max(...seen.attempts.values())).toBe(2)
  })

  it('learns no depth from a request the platform did not take in (refused, or a 429 to its last attempt)', async () => {
    // f, g, h refused at depths 6 to 8: no depth of 8 was let in, so p's 429 at 8 is a limit.
    const clock = new VirtualClock(0, 0)
    const send = async (item: string, attemptsUsed: number): Promise<Sent<string>> => {
      await clock.sleep(20)
      if (item === 'p' && attemptsUsed === 0)
        return { throttled: { waitMs: 0, attemptsUsed: 1, why: '429.' } }
      return 'fgh'.includes(item) ? { done: `refused ${item}`, failed: true } : { done: item }
    }
    const log = recordingRunner()
    const pool = new Pool(8, clock, new Deadline(clock, 0), log)
    await clock.run(pool.run(letters(16), send, () => 'left'))
    expect(log.lines).toEqual([
      'info: The platform turned away a revoke with 7 others in flight: sending at most 7 at a time.',
    ])
  })

  it("reads a limit in flight through a network's jitter: answers back late, out of order", async () => {
    // 3 in flight; each request 1 ms on the wire, one after another, 8 ms of work (a 429 too,
    // not counted), then 1 ms back and up to 5 ms more, each its own.
    const clock = new VirtualClock(0, 0)
    const late = [0, 5, 2, 4, 1, 3, 5]
    let [wire, inFlight, answers] = [0, 0, 0]
    const send = async (item: string, attemptsUsed: number): Promise<Sent<string>> => {
      wire = Math.max(wire, clock.now()) + 1
      await clock.sleep(wire - clock.now())
      const over = inFlight >= 3
      inFlight += over ? 0 : 1
      await clock.sleep(8)
      inFlight -= over ? 0 : 1
      await clock.sleep(1 + (late[answers++ % late.length] ?? 0))
      const throttle = { waitMs: 500, guessed: true, attemptsUsed: attemptsUsed + 1, why: '429.' }
      return over ? { throttled: throttle } : { done: item }
    }
    const log = recordingRunner()
    const pool = new Pool(16, clock, new Deadline(clock, 0), log)
    expect(await clock.run(pool.run(letters(24), send, () => 'left'))).toEqual(letters(24))
    // With a fixed blur, a quarter of the shortest round trip, the pool read a rate.
    expect(log.lines.filter((line) => line.includes('limits the rate'))).toEqual([])
    expect(log.lines.at(-1)).toContain('sending at most 3 at a time')
    expect(clock.now()).toBeLessThan(150)
  })
})
