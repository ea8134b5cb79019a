// The operations: the one asked for, run against the platform to a plain result (list and revoke here; create, cleanup and audit have modules of their own).
import type { ListTask, Task } from '../inputs/read.js'
import type { CreateOptions, RevokeAnswer, TokenApi } from '../platform/client.js'
import { newestFirst, projectOf } from '../shared/records.js'
import type { Logger } from '../shared/text.js'
import type { Clock, Deadline } from '../shared/time.js'
import { audit, type AuditResult } from './audit.js'
import { cleanup, type CleanupResult } from './cleanup.js'
import { nameMatcher } from './cleanup-plan.js'
import { create, type CreateResult } from './create.js'

/**
 * The matching records, newest first, how many the project has in all, before filtering,
 * and the project the list answer's records belong to.
 */
export type ListResult = Awaited<ReturnType<typeof list>>

/** A revoke's answer: the token, and whether it was revoked before this step (nothing changed). */
export type RevokeResult = RevokeAnswer & { operation: 'revoke' }

export type Result = CreateResult | ListResult | RevokeResult | CleanupResult | AuditResult

/**
 * An operation's outcome, by its name: the task asked for, beside the result, which holds
 * only what the platform returned and what happened (report/ reads the settings from the task).
 */
export type Done<O extends Task['operation']> = {
  operation: O
  task: Extract<Task, { operation: O }>
  result: Extract<Result, { operation: O }>
}
/** The outcome of whichever operation was asked for. */
export type Outcome = { [O in Task['operation']]: Done<O> }[Task['operation']]

/**
 * Runs the operation the inputs asked for, with time, the log and the step's budget (and for
 * a create, where its record goes as it changes: the post step acts on it). revoke: one token
 * by id, idempotently (a token revoked already is a success that changed nothing). audit:
 * never revokes, whatever it finds.
 */
export async function perform(
  client: TokenApi,
  task: Task,
  context: { clock: Clock; log: Logger; deadline: Deadline; record?: CreateOptions['record'] },
): Promise<Outcome> {
  switch (task.operation) {
    case 'create':
      return { operation: 'create', task, result: await create(client, task, context.record) }
    case 'list':
      return { operation: 'list', task, result: await list(client, task) }
    case 'revoke': {
      const result = { operation: 'revoke', ...(await client.revokeToken(task.tokenId)) } as const
      return { operation: 'revoke', task, result }
    }
    case 'cleanup':
      return { operation: 'cleanup', task, result: await cleanup(client, task, context) }
    case 'audit':
      return { operation: 'audit', task, result: await audit(client, task, context.clock) }
  }
}

/** list: the tokens that match the name and state filters, newest first. */
async function list(client: TokenApi, { name, state }: ListTask) {
  const all = await client.listTokens()
  const matches = nameMatcher(name)
  const tokens = all.filter((t) => matches(t.name) && (state === 'all' || t.state === state))
  const project = projectOf(all)
  return { operation: 'list' as const, tokens: newestFirst(tokens), total: all.length, project }
}
