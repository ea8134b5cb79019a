// The audit operation: the active tokens older than olderThan, from the list alone. It revokes nothing, and fails closed: a token it cannot date fails it too.
import type { AuditTask } from '../inputs/read.js'
import type { TokenApi } from '../platform/client.js'
import { createdTime, nameAndId, newestFirst, projectOf } from '../shared/records.js'
import type { TokenRecord } from '../shared/records.js'
import { countTokens, someOf } from '../shared/text.js'
import { agesNow, type Clock } from '../shared/time.js'
import { isOlder, nameMatcher } from './cleanup-plan.js'

/**
 * What an audit found (planAudit), how many tokens the project has and which it is, and
 * when and on whose clock the ages were measured. `findings` are the outputs.
 */
export type AuditResult = Awaited<ReturnType<typeof audit>>

/** Lists the tokens and measures their ages on the platform's clock when it can. */
export async function audit(client: TokenApi, task: AuditTask, clock: Clock) {
  const tokens = await client.listTokens()
  const { now, ages } = agesNow(clock, (at) => client.platformTime(at))
  const listed = { total: tokens.length, project: projectOf(tokens), now, ages }
  return { operation: 'audit' as const, ...planAudit(tokens, task, now), ...listed }
}

/**
 * An audit's findings, newest first: the active tokens matching `name` older than
 * `olderThan`, the newest of a name too (keep does not apply); and the matching active
 * tokens whose createdAt cannot be read (`undated`), reported, never dropped.
 */
export function planAudit(
  tokens: readonly TokenRecord[],
  task: Pick<AuditTask, 'name' | 'olderThan'>,
  now: number,
): { findings: TokenRecord[]; undated: TokenRecord[] } {
  const matches = nameMatcher(task.name)
  const active = tokens.filter((token) => token.state === 'active' && matches(token.name))
  const undated = active.filter((token) => createdTime(token) === undefined)
  // Created at Infinity, a token that cannot be dated is older than nothing: it is undated.
  const older = (token: TokenRecord) => isOlder(createdTime(token) ?? Infinity, task.olderThan, now)
  return { findings: newestFirst(active.filter(older)), undated }
}

/** One sentence on what an audit found, for the log and the summary. */
export function auditOutcome(result: AuditResult, { name, olderThan }: AuditTask): string {
  const { findings, undated, total } = result
  const unknown = undated.length > 0 ? `; ${undated.length} more cannot be dated` : ''
  if (findings.length === 0 && undated.length === 0)
    return `No active token${name ? ' matching name' : ''} is older than ${olderThan.text} (${countTokens(total)} checked).`
  if (findings.length === 0) {
    const [them, are] = undated.length === 1 ? ['it', 'is'] : ['they', 'are']
    return `${undated.length} active ${undated.length === 1 ? 'token' : 'tokens'} cannot be dated: this audit cannot tell whether ${them} ${are} older than ${olderThan.text}.`
  }
  const are = findings.length === 1 ? 'is' : 'are'
  return `${findings.length} active ${findings.length === 1 ? 'token' : 'tokens'} ${are} older than ${olderThan.text}${unknown}.`
}

/**
 * Why the audit fails the step, or undefined when it passes: a token older than the limit,
 * or one whose age cannot be told (an audit that cannot tell does not pass).
 */
export function auditFailure(result: AuditResult, task: AuditTask): string | undefined {
  const { findings, undated } = result
  if (findings.length === 0 && undated.length === 0) return undefined
  const whereAll = 'the job summary and the tokensFile output list them'
  const found = findings.length > 0 ? ` Older: ${someOf(findings.map(nameAndId), whereAll)}` : ''
  const unknown =
    undated.length > 0
      ? ` Their createdAt cannot be read: ${someOf(undated.map(nameAndId), 'each has a warning above')}`
      : ''
  return `${auditOutcome(result, task)}${found}${unknown}`
}
