// What a cleanup revokes and what it keeps, decided from the list alone.
import type { CleanupTask } from '../task.js'
import { nameMatcher } from '../name-pattern.js'
import { createdTime, newestFirst, newestFirstBy, type TokenRecord } from '../records.js'

export interface KeptToken {
  token: TokenRecord
  /** `keep`: among the newest of its name; `unreadable date`: its age cannot be told. */
  why: 'keep' | 'unreadable date'
}

export interface CleanupPlan {
  /** Active tokens to revoke, newest first. */
  revoke: TokenRecord[]
  /** Active tokens the selection matched but keeps, newest first. */
  kept: KeptToken[]
}

/**
 * Chooses what a cleanup revokes: active tokens matching `name` (exact or `*`
 * pattern), older than `olderThan`, except the `keep` newest of each name. A token
 * whose createdAt cannot be read is never revoked when the choice depends on age
 * (`olderThan`, or ranking for `keep`); with a name alone and no keep, it goes too.
 * At the `keep` boundary, tokens that tie (same second) are all kept.
 */
export function planCleanup(
  tokens: readonly TokenRecord[],
  task: Pick<CleanupTask, 'name' | 'olderThan' | 'keep'>,
  now: number,
): CleanupPlan {
  const matches = task.name === undefined ? () => true : nameMatcher(task.name)
  const byName = new Map<string, TokenRecord[]>()
  for (const token of tokens) {
    if (token.state !== 'active' || !matches(token.name)) continue
    const group = byName.get(token.name) ?? []
    group.push(token)
    byName.set(token.name, group)
  }

  const ageMatters = task.olderThan !== undefined || task.keep > 0
  const revoke: TokenRecord[] = []
  const kept: KeptToken[] = []
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
    const lastKept = task.keep > 0 ? readable[Math.min(task.keep, readable.length) - 1] : undefined
    const boundary = lastKept === undefined ? undefined : createdTime(lastKept)
    const keeps = (token: TokenRecord) =>
      boundary !== undefined && (createdTime(token) ?? -Infinity) >= boundary
    kept.push(...readable.filter(keeps).map((token) => ({ token, why: 'keep' as const })))
    const older = task.olderThan?.ms
    revoke.push(
      ...readable
        .filter((token) => !keeps(token))
        .filter((token) => older === undefined || now - (createdTime(token) ?? now) > older),
    )
  }
  return {
    revoke: newestFirst(revoke),
    kept: newestFirstBy(kept, ({ token }) => token),
  }
}
