// @ts-check
// A cleanup by a bare client that does not know the platform's limit in flight before it
// starts, and learns it perfectly from its first 429: node:http, authenticate, list, then
// revoke every old token, starting with IN_FLIGHT at once (the action's concurrency). At
// its first 429 it keeps to LIMIT from then on (the platform's limit, which no real client
// is told: the best that learning can do). A 429 gives its place back and is sent again
// exactly when its Retry-After says, in any style (no jitter; 500 ms without one), before
// the tokens never sent; a 503 likewise, but it says nothing of the limit. No checks, no
// masking, no logging. The benchmark runs it beside the action under a limit in flight:
// what a client that must learn the limit cannot beat, since its first round over the
// limit waits out a Retry-After. Environment: as bare-cleanup-client.mjs, plus IN_FLIGHT
// and LIMIT.
import { agent, authenticate, oldTokenIds, retryAfterMs, revoke } from './bare-cleanup-client.mjs'

const { env } = process
const bearer = await authenticate()
const fresh = await oldTokenIds(bearer)
let limit = Number(env.IN_FLIGHT)
let inFlight = 0
/** @type {{ id: string, at: number }[]} throttled tokens, in the order their time comes */
const again = []
let left = fresh.length

await new Promise((/** @type {(value?: unknown) => void} */ finish) => {
  const pump = () => {
    if (left === 0) return finish()
    while (inFlight < limit) {
      const now = Date.now()
      const first = again[0]
      const id = first && first.at <= now ? again.shift()?.id : fresh.shift()
      if (id === undefined) {
        if (first) setTimeout(pump, first.at - now)
        return
      }
      inFlight++
      void revoke(id, bearer).then((answer) => {
        inFlight--
        const now = Date.now()
        if (answer.status === 429 || answer.status === 503) {
          again.push({ id, at: now + (retryAfterMs(answer) ?? 500) })
          again.sort((a, b) => a.at - b.at)
          if (answer.status === 429) limit = Math.min(limit, Number(env.LIMIT))
        } else {
          left--
        }
        pump()
      })
    }
  }
  pump()
})
agent.destroy()
