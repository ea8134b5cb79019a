// @ts-check
// A cleanup by a client that knows how the platform throttles: node:http, authenticate, list,
// then revoke every old token, IN_FLIGHT senders at most (the action's concurrency). It
// keeps its own copy of the platform's throttle (THROTTLE, a ThrottleSpec as JSON, started at
// THROTTLE_START on the same clock) and mirrors each of its requests there: before a send
// it waits for the copy's next admission, then arrives; once answered, it leaves. So it
// keeps to any model (limits in flight, buckets, windows, a share taken for a while) and
// meets (almost) no 429; one it meets it sends again 20 ms later. It meets outages as anyone
// does, and sends again at once. The benchmark runs it beside the action: the floor that no
// client which must learn the limit can beat. Environment: as bare-cleanup-client.mjs, plus
// IN_FLIGHT, THROTTLE and THROTTLE_START.
import { Throttle } from '../test/support/fake-platform/throttle.mjs'
import { agent, authenticate, oldTokenIds, revoke } from './bare-cleanup-client.mjs'

const { env } = process
const known = new Throttle(JSON.parse(env.THROTTLE ?? '{}'), Number(env.THROTTLE_START))

const limit = known.spec.limit
/** Only a limit in flight frees a place when a request leaves; a rate frees it in time. */
const freedByLeaving = limit !== undefined && 'inFlight' in limit
/**
 * Under a rate, the copy is asked on a clock this much behind (while it records requests at
 * their time), so that it lets one in a little late: requests reach the platform a little
 * after they are sent, and not all as quickly (those of a burst, on new connections, later),
 * so the platform may still count one the copy has let go. Under a limit in flight, a
 * request that leaves here has left there: no need.
 */
const LAG_MS = freedByLeaving ? 0 : 30
/** @type {Set<() => void>} those waiting for a request to leave */
const waiting = new Set()

/**
 * Until `at`, or (under a limit in flight) until a request leaves.
 * @param {number} at
 */
function until(at) {
  return new Promise((resolve) => {
    const wake = () => {
      clearTimeout(timer)
      waiting.delete(wake)
      resolve(undefined)
    }
    // 1 ms more: a timer may fire a hair early.
    const timer = at === Infinity ? undefined : setTimeout(wake, at - Date.now() + 1)
    if (freedByLeaving) waiting.add(wake)
  })
}

/**
 * Sends a request once the copy of the throttle lets it in, counted there until answered.
 * @template T
 * @param {() => Promise<T>} request
 * @returns {Promise<T>}
 */
async function send(request) {
  for (;;) {
    const lagging = Date.now() - LAG_MS
    const at = known.nextAdmission(lagging)
    if (at <= lagging) break
    await until(at + LAG_MS)
  }
  const { ticket } = known.arrive(Date.now())
  try {
    return await request()
  } finally {
    known.leave(ticket)
    for (const wake of [...waiting]) wake()
  }
}

const bearer = await authenticate()
const ids = await send(() => oldTokenIds(bearer))

let next = 0
const worker = async () => {
  while (next < ids.length) {
    const id = /** @type {string} */ (ids[next++])
    for (;;) {
      const { status } = await send(() => revoke(id, bearer))
      if (status === 503) continue
      if (status !== 429) break
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }
}
await Promise.all(Array.from({ length: Number(env.IN_FLIGHT) }, worker))
agent.destroy()
