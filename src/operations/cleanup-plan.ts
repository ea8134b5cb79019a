// Which tokens a filter takes: token names matched against patterns, and what a cleanup revokes and keeps, decided from the list alone.
import type { CleanupTask } from '../inputs/read.js'
import { createdTime, newestFirst, newestFirstBy, type TokenRecord } from '../shared/records.js'

/**
 * A token the selection took and does not revoke, and why. `keep`: it is among the `keep`
 * newest of its name, and would be revoked without that; `unreadable date`: its age cannot
 * be told; `unreadable name`: its name is not text, so it belongs to no name to rank in.
 */
export type KeptToken = { token: TokenRecord; why: 'keep' | 'unreadable date' | 'unreadable name' }

/**
 * Chooses what a cleanup revokes: active tokens matching `name` (exact or `*`
 * pattern), older than `olderThan`, except the `keep` newest of each name. A token
 * whose createdAt cannot be read is never revoked when the choice depends on age
 * (`olderThan`, or ranking for `keep`); with a name alone and `keep: 0`, it goes too. A
 * token whose name is not text is never revoked: nothing can rank it among its name.
 * At the `keep` boundary, tokens that tie (same second) are all kept. Both lists come
 * newest first.
 */
export function planCleanup(
  tokens: readonly TokenRecord[],
  task: Pick<CleanupTask, 'name' | 'olderThan' | 'keep'>,
  now: number,
): { revoke: TokenRecord[]; kept: KeptToken[] } {
  const matches = task.name === undefined ? () => true : nameMatcher(task.name)
  // A selection that takes every name would take a token whose name is unknown too.
  const anyName = task.name === undefined || /^\*+$/.test(task.name)
  const byName = new Map<string, TokenRecord[]>()
  const revoke: TokenRecord[] = []
  const kept: KeptToken[] = []
  for (const token of tokens) {
    if (token.state !== 'active') continue
    if (token.name === undefined) {
      if (anyName) kept.push({ token, why: 'unreadable name' })
    } else if (matches(token.name)) {
      const group = byName.get(token.name) ?? []
      group.push(token)
      byName.set(token.name, group)
    }
  }

  const ageMatters = task.olderThan !== undefined || task.keep > 0
  const older = task.olderThan?.ms
  for (const group of byName.values()) {
    const times = group.flatMap((token) => createdTime(token) ?? []).sort((a, b) => b - a)
    // Timestamps have whole seconds: a token created in the same second as the last one
    // kept ties with it, and which of the two is newer cannot be told. Both are kept.
    // With keep 0 (or no readable date) the index is -1: no token is kept for keep.
    const boundary = times[Math.min(task.keep, times.length) - 1] ?? Infinity
    for (const token of group) {
      const created = createdTime(token)
      // Not old enough: the selection does not take it, so nothing keeps it either.
      if (created !== undefined && older !== undefined && now - created <= older) continue
      if (created === undefined && ageMatters) kept.push({ token, why: 'unreadable date' })
      else if (created !== undefined && created >= boundary) kept.push({ token, why: 'keep' })
      else revoke.push(token)
    }
  }
  return { revoke: newestFirst(revoke), kept: newestFirstBy(kept, ({ token }) => token) }
}

/**
 * Matches token names against a filter: an exact name, or a pattern in which `*`
 * stands for any run of characters (`ci-*`, `*-staging`, `ci-*-db`). Case-sensitive,
 * and every other character is literal. A record without a name (its name was not a
 * string) matches nothing, not even `*`. Linear in the name's length, unlike a regular
 * expression, which a long name could make backtrack for ever.
 */
export function nameMatcher(pattern: string): (name: string | undefined) => boolean {
  // The fixed start and end (none without a `*`), and the parts between them. An empty
  // part (`**`) matches anywhere: it changes nothing, so it is not taken out.
  const [first = '', ...middle] = pattern.split('*')
  const last = middle.pop()
  if (last === undefined) return (name) => name === pattern
  return (name) => {
    if (name === undefined || !name.startsWith(first) || !name.endsWith(last)) return false
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
