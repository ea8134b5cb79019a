// The list operation: the tokens that match the name and state filters, newest first.
import type { TokenApi } from '../platform/client.js'
import type { ListTask } from '../inputs/task.js'
import { nameMatcher } from './name-pattern.js'
import { newestFirst, type TokenRecord } from '../shared/records.js'

export interface ListResult {
  operation: 'list'
  /** The matching records, newest first. */
  tokens: TokenRecord[]
  /** How many records the project has in all, before filtering. */
  total: number
}

export async function list(client: TokenApi, task: ListTask): Promise<ListResult> {
  const all = await client.listTokens()
  const matchesName = task.name === undefined ? () => true : nameMatcher(task.name)
  const tokens = all.filter(
    (token) => matchesName(token.name) && (task.state === 'all' || token.state === task.state),
  )
  return { operation: 'list', tokens: newestFirst(tokens), total: all.length }
}
