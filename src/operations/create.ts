// The create operation: a new token, or with ifExists an existing one reused or refused.
import { ActionError, messageOf } from '../shared/errors.js'
import type { CreateTask, RevokeOnExit } from '../inputs/task.js'
import type { TokenApi } from '../platform/token-api.js'
import { newestFirst, tokenLabel, type TokenRecord } from '../shared/records.js'
import { asSentence } from '../shared/text.js'

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

/**
 * A new token whose value could not be handed on (a runner file that could not be
 * written, a value too large for an output): nobody will ever have its value, so it is
 * revoked at once; if that fails too, the message names it by id. A reused token is not
 * this step's to revoke. Returns the error the step fails with.
 */
export async function revokeUnhanded(
  client: TokenApi,
  result: CreateResult,
  error: unknown,
): Promise<ActionError> {
  const why = asSentence(messageOf(error).replace(/\.$/, ''))
  const { token } = result
  if (result.reused) return new ActionError(`${why} The reused ${tokenLabel(token)} stays active.`)
  try {
    await client.revokeToken(token.id)
    return new ActionError(
      `${why} The new ${tokenLabel(token)} was revoked at once, as its value was not handed on.`,
    )
  } catch (revokeError) {
    return new ActionError(
      `${why} Its value was not handed on, and revoking the new ${tokenLabel(token)} at once failed too: ${asSentence(messageOf(revokeError))} Revoke it with operation: revoke and tokenId: ${token.id}.`,
    )
  }
}
