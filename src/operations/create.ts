// The create operation: a new token, or with ifExists an existing one reused or refused.
import { ActionError } from '../errors.js'
import type { CreateTask, RevokeOnExit } from '../task.js'
import type { TokenApi } from '../platform/token-api.js'
import { newestFirst, type TokenRecord } from '../records.js'

export interface CreateResult {
  operation: 'create'
  /** The token, value included (already masked). */
  token: TokenRecord
  /** An existing token was returned (ifExists: reuse); nothing was created. */
  reused: boolean
  envName: string | undefined
  /** When the post step revokes this token: as asked, or `never` for a reused token. */
  revokeOnExit: RevokeOnExit
  /** revokeOnExit was asked for, but the token was reused: it is not this step's to revoke. */
  revokeOnExitSkipped: boolean
}

/**
 * Creates a token, or with ifExists `reuse` returns the newest active token with
 * exactly this name, or with `fail` refuses when one exists. Only `create` skips
 * the look at the list, so that the usual path stays at two requests.
 */
export async function create(client: TokenApi, task: CreateTask): Promise<CreateResult> {
  const { name, envName, ifExists, revokeOnExit } = task
  if (ifExists !== 'create') {
    const tokens = await client.listTokens()
    const [existing] = newestFirst(tokens.filter((t) => t.name === name && t.state === 'active'))
    if (existing !== undefined) {
      const which = `an active token named '${name}' exists already: ${existing.id}, created ${existing.createdAt ?? 'at an unknown time'}`
      if (ifExists === 'fail') throw new ActionError(`${which}, and ifExists is fail.`)
      if (existing.tokenValue === undefined) {
        throw new ActionError(
          `${which}, but the platform did not return its value, so it cannot be reused.`,
        )
      }
      return {
        operation: 'create',
        token: existing,
        reused: true,
        envName,
        revokeOnExit: 'never',
        revokeOnExitSkipped: revokeOnExit !== 'never',
      }
    }
  }
  const token = await client.createToken(name)
  return {
    operation: 'create',
    token,
    reused: false,
    envName,
    revokeOnExit,
    revokeOnExitSkipped: false,
  }
}
