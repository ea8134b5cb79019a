// The post step's search for the token of a create whose outcome is unknown: while it may land, while the list may answer, within the step's bound.
import type { Clock, Deadline } from '../shared/time.js'
import type { Logger } from '../shared/text.js'
import { RequestError } from '../shared/errors.js'
import {
  findCreated,
  LATE_CREATE_MS,
  type CreatedToken,
  type CreateFacts,
  type PlatformTime,
} from '../platform/lost-create.js'
import { quoteName, type TokenRecord } from '../shared/records.js'

/** How often the list is read again while a create may still land. */
const POLL_MS = 2_000
/** The longest wait between two lists that failed. */
const MAX_WAIT_MS = 8_000

/**
 * The post step's search for the token of a create whose outcome is unknown (mustSearch):
 * the list, read again while the create may still land (`landed`: true when it no longer
 * can, false when the search ended before that), and after a failure that may pass, with
 * backoff; all while `deadline` allows. A failure that waiting will not change (a
 * certificate, a refused authentication, a 404, an answer that is not JSON) ends it at once:
 * it is thrown, as is the deadline's own (no time is left to wait).
 */
export async function searchCreated(
  api: { listTokens(): Promise<TokenRecord[]>; platformTime: PlatformTime },
  facts: CreateFacts,
  { clock, deadline, log }: { clock: Clock; deadline: Deadline; log: Logger },
  totalMs: number,
): Promise<CreatedToken & { landed?: boolean }> {
  const options = facts.id === undefined ? { totalMs } : { totalMs, except: facts.id }
  for (let wait = 1_000; ;) {
    let tokens: TokenRecord[]
    try {
      tokens = await api.listTokens()
    } catch (error) {
      const passes = error instanceof RequestError && error.transient
      if (!passes || deadline.remaining() <= wait) throw error
      log.info(`Listing the tokens failed: ${error.message} Looking again in ${wait / 1000} s.`)
      await clock.sleep(wait, deadline.stopSignal)
      wait = Math.min(2 * wait, MAX_WAIT_MS)
      continue
    }
    const created = findCreated(tokens, facts, (at) => api.platformTime(at), options)
    if (created.found !== 'none') return created
    const landing = facts.sentAt + LATE_CREATE_MS - clock.now()
    if (landing <= 0) return { found: 'none', landed: true }
    const next = Math.min(POLL_MS, landing)
    if (deadline.remaining() <= next) return { found: 'none', landed: false }
    log.info(
      `No token named ${quoteName(facts.name)} in the list yet; a create can land late: looking again in ${POLL_MS / 1000} s, for another ${Math.ceil(landing / 1000)} s at most.`,
    )
    await clock.sleep(next, deadline.stopSignal)
  }
}
