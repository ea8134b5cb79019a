// @ts-check
// A cleanup by a client that knows the platform's limit: node:http, authenticate, list,
// then revoke every old token, never more in flight than the limit allows and never faster
// than its rate (with the burst it allows), so that it meets no 429. The benchmark runs it
// beside the action under the same limit: the floor that no client which must learn the
// limit can beat. Environment: as node-floor.mjs, plus OLDER_THAN_DAYS, IN_FLIGHT (the most
// in flight: the platform's limit, or the action's concurrency if lower), and PER_SECOND
// and BURST for a rate limit.
import { agent, authenticate, oldTokenIds, revoke } from './bare-cleanup-client.mjs'

const { env } = process
const bearer = await authenticate()
const perSecond = Number(env.PER_SECOND || Infinity)
// The platform's bucket, as the client keeps it: the list takes one of its tokens.
let tokens = Number(env.BURST || 1) - 1
let refilledAt = Date.now()
const take = async () => {
  for (;;) {
    const now = Date.now()
    tokens = Math.min(Number(env.BURST || 1), tokens + ((now - refilledAt) * perSecond) / 1000)
    refilledAt = now
    if (tokens >= 1) return void (tokens -= 1)
    await new Promise((resolve) => setTimeout(resolve, ((1 - tokens) * 1000) / perSecond + 1))
  }
}

const ids = await oldTokenIds(bearer)

let next = 0
const worker = async () => {
  while (next < ids.length) {
    const id = /** @type {string} */ (ids[next++])
    for (;;) {
      if (perSecond !== Infinity) await take()
      const { status } = await revoke(id, bearer)
      if (status !== 429) break
      // Knowing the limit, this should not happen; if the clocks disagree by a hair, wait a hair.
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }
}
await Promise.all(Array.from({ length: Number(env.IN_FLIGHT) }, worker))
agent.destroy()
