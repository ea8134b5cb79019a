// Which tokens a filter takes: token names matched against patterns, what a cleanup revokes and keeps, and which are older than an age, decided from the list alone.
import type { Duration } from '../inputs/parsers.js'
import type { CleanupTask } from '../inputs/read.js'
import { createdTime, newestFirst, type TokenRecord } from '../shared/records.js'

/**
 * A token the selection took and does not revoke, and why. `keepIds`: its id is one the
 * cleanup was told never to revoke. `keep`: it is among the `keep`
 * newest of its name, and would be revoked without that (`soleOfName`: a pattern took it,
 * and it is the only record its name has, like `pr-123`'s: keep: 0 may be meant for it);
 * `unreadable date`: its age cannot be told; `unreadable name`: its name is not text, so it
 * belongs to no name to rank in.
 */
export type KeptToken = { token: TokenRecord; why: KeptBecause; soleOfName?: boolean }
type KeptBecause = 'keepIds' | 'keep' | 'unreadable date' | 'unreadable name'

/** What a cleanup revokes, and what it keeps of what the selection took. */
type Plan = { revoke: TokenRecord[]; kept: KeptToken[] }

/**
 * Chooses what a cleanup revokes: active tokens matching `name` (any of its filters, see
 * nameMatcher), older than `olderThan`, except the `keep` newest of each exact name. A token
 * whose createdAt cannot be read is never revoked when the choice depends on age
 * (`olderThan`, or ranking for `keep`); with a name alone and `keep: 0`, it goes too. A
 * token whose name is not text is never revoked: nothing can rank it among its name.
 * At the `keep` boundary, tokens that tie (same second) are all kept. A token whose id is
 * in `keepIds` is never revoked. Both lists come newest first.
 */
export function planCleanup(
  tokens: readonly TokenRecord[],
  task: Pick<CleanupTask, 'name' | 'olderThan' | 'keep'> & Partial<Pick<CleanupTask, 'keepIds'>>,
  now: number,
): Plan {
  const matches = nameMatcher(task.name)
  // Newest first, as the plan's lists come: each name's times below are in that order too.
  const selected = newestFirst(tokens.filter((t) => t.state === 'active' && matches(t.name)))
  // Every record of each name, revoked ones too: a name with one has been used once.
  const records = new Map<string | undefined, number>()
  for (const { name } of tokens) records.set(name, (records.get(name) ?? 0) + 1)
  // The readable creation times of each name's selected tokens, newest first.
  const times = new Map<string | undefined, number[]>()
  for (const token of selected) {
    const created = createdTime(token)
    if (created === undefined) continue
    if (times.has(token.name)) times.get(token.name)?.push(created)
    else times.set(token.name, [created])
  }

  const { olderThan } = task
  const ageMatters = olderThan !== undefined || task.keep > 0
  // A name a line names exactly is one in use: its newest token is kept with no word of keep: 0.
  const exactNames = new Set<string | undefined>(task.name?.filter((line) => !line.includes('*')))
  // A token whose id is in keepIds is kept for that reason, the one said in so many words. It
  // still ranked among its name for keep: an id kept does not make keep spare one more of its
  // name. A token the selection did not take (too young, another name) was never at risk, and
  // is not listed.
  const spared = new Set(task.keepIds?.map((id) => id.toLowerCase()))
  const plan: Plan = { revoke: [], kept: [] }
  for (const token of selected) {
    const { name } = token
    const created = createdTime(token)
    // Not old enough: the selection does not take it, so nothing keeps it either. A token
    // whose name is not text is taken whatever its age: it is kept.
    const young = olderThan && created !== undefined && !isOlder(created, olderThan, now)
    if (young && name !== undefined) continue
    const named = times.get(name) ?? []
    // Timestamps have whole seconds: a token created in the same second as the last one
    // kept ties with it, and which of the two is newer cannot be told. Both are kept.
    // With keep 0 (or no readable date) the index is -1: no token is kept for keep.
    const boundary = named[Math.min(task.keep, named.length) - 1] ?? Infinity
    if (spared.has(token.id.toLowerCase())) plan.kept.push({ token, why: 'keepIds' })
    else if (name === undefined) plan.kept.push({ token, why: 'unreadable name' })
    else if (created === undefined && ageMatters) plan.kept.push({ token, why: 'unreadable date' })
    else if (created !== undefined && created >= boundary) {
      const sole = !exactNames.has(name) && records.get(name) === 1
      plan.kept.push({ token, why: 'keep', ...(sole && { soleOfName: true }) })
    } else plan.revoke.push(token)
  }
  return plan
}

/** Whether a token created at `created` is older than `age` at `now` (its age in full). */
export function isOlder(created: number, age: Duration, now: number): boolean {
  return now - created > age.ms
}

/**
 * Matches token names against filters (undefined: every name), taking a name that matches
 * any of them. A record whose name is not text matches only a filter that takes every name
 * (none, or one of `*` alone).
 */
export function nameMatcher(filters: readonly string[] | undefined) {
  if (filters === undefined) return () => true
  const each = filters.map(patternMatcher)
  const everyName = filters.some((filter) => /^\*+$/.test(filter))
  return (name: string | undefined) =>
    name === undefined ? everyName : each.some((matches) => matches(name))
}

/**
 * Matches token names against one filter: an exact name, or a pattern in which `*`
 * stands for any run of characters (`ci-*`, `*-staging`, `ci-*-db`). Case-sensitive,
 * and every other character is literal. Linear in the name's length, unlike a regular
 * expression, which a long name could make backtrack for ever.
 */
function patternMatcher(pattern: string): (name: string) => boolean {
  // The fixed start and end (none without a `*`), and the parts between them. An empty
  // part (`**`) matches anywhere: it changes nothing, so it is not taken out.
  const [first = '', ...middle] = pattern.split('*')
  const last = middle.pop()
  if (last === undefined) return (name) => name === pattern
  return (name) => {
    if (!name.startsWith(first) || !name.endsWith(last)) return false
    // Each middle part, leftmost first: the parts fit when the last of them ends before the
    // fixed end begins (which also keeps the two ends from overlapping: `ab*ba`).
    let at = first.length
    for (const part of middle) {
      const found = name.indexOf(part, at)
      if (found === -1) return false
      at = found + part.length
    }
    return at <= name.length - last.length
  }
}
