// Which tokens a filter takes: token names matched against patterns, and what a cleanup revokes and keeps, decided from the list alone.
import type { CleanupTask } from '../inputs/read.js'
import { createdTime, newestFirst, newestFirstBy, type TokenRecord } from '../shared/records.js'

export interface KeptToken {
  token: TokenRecord
  /**
   * Why a token the selection took is not revoked. `keep`: it is among the `keep` newest
   * of its name, and would be revoked without that; `unreadable date`: its age cannot be
   * told; `unreadable name`: its name is not text, so it belongs to no name to rank in.
   */
  why: 'keep' | 'unreadable date' | 'unreadable name'
}

export interface CleanupPlan {
  /** Active tokens to revoke, newest first. */
  revoke: TokenRecord[]
  /** Active tokens the selection took but keeps, newest first. */
  kept: KeptToken[]
}

/**
 * Chooses what a cleanup revokes: active tokens matching `name` (exact or `*`
 * pattern), older than `olderThan`, except the `keep` newest of each name. A token
 * whose createdAt cannot be read is never revoked when the choice depends on age
 * (`olderThan`, or ranking for `keep`); with a name alone and `keep: 0`, it goes too. A
 * token whose name is not text is never revoked: nothing can rank it among its name.
 * At the `keep` boundary, tokens that tie (same second) are all kept.
 */
export function planCleanup(
  tokens: readonly TokenRecord[],
  task: Pick<CleanupTask, 'name' | 'olderThan' | 'keep'>,
  now: number,
): CleanupPlan {
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
      continue
    }
    if (!matches(token.name)) continue
    const group = byName.get(token.name) ?? []
    group.push(token)
    byName.set(token.name, group)
  }

  const ageMatters = task.olderThan !== undefined || task.keep > 0
  const older = task.olderThan?.ms
  for (const group of byName.values()) {
    const readable = newestFirst(group.filter((token) => createdTime(token) !== undefined))
    const unreadable = group.filter((token) => createdTime(token) === undefined)
    if (ageMatters) {
      kept.push(...unreadable.map((token) => ({ token, why: 'unreadable date' as const })))
    } else {
      revoke.push(...unreadable)
    }
    // Timestamps have whole seconds: a token created in the same second as the last one
    // kept ties with it, and which of the two is newer cannot be told. Both are kept.
    // With keep 0 (or no readable token) the index is -1: no token is kept for keep.
    const lastKept = readable[Math.min(task.keep, readable.length) - 1]
    const boundary = lastKept === undefined ? undefined : createdTime(lastKept)
    for (const token of readable) {
      const created = createdTime(token) ?? now
      // Not old enough: the selection does not take it, so nothing keeps it either.
      if (older !== undefined && now - created <= older) continue
      if (boundary !== undefined && created >= boundary) kept.push({ token, why: 'keep' })
      else revoke.push(token)
    }
  }
  return {
    revoke: newestFirst(revoke),
    kept: newestFirstBy(kept, ({ token }) => token),
  }
}

/**
 * Matches token names against a filter: an exact name, or a pattern in which `*`
 * stands for any run of characters (`ci-*`, `*-staging`, `ci-*-db`). Case-sensitive,
 * and every other character is literal. A record without a name (its name was not a
 * string) matches nothing, not even `*`.
 */
export function nameMatcher(pattern: string): (name: string | undefined) => boolean {
  if (!pattern.includes('*')) return (name) => name === pattern
  // The fixed start and end, and the parts between the first and the last `*`. An empty
  // part (`**`) matches anywhere: it changes nothing, so it is not taken out.
  const firstStar = pattern.indexOf('*')
  const lastStar = pattern.lastIndexOf('*')
  const first = pattern.slice(0, firstStar)
  const last = pattern.slice(lastStar + 1)
  const middle = pattern.slice(firstStar + 1, lastStar).split('*')
  return (name) => {
    if (name === undefined) return false
    if (!name.startsWith(first) || !name.endsWith(last)) return false
    // Each middle part, leftmost first, in the span between the fixed ends. There is at
    // least one (`''` for `a*b`), which also keeps the two ends from overlapping (`ab*ba`).
    let at = first.length
    const end = name.length - last.length
    for (const part of middle) {
      const found = name.indexOf(part, at)
      if (found === -1 || found + part.length > end) return false
      at = found + part.length
    }
    return true
  }
}
