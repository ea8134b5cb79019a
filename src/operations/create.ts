// The create operation: a new token, or with ifExists an existing one reused or refused.
import { ActionError, messageOf } from '../shared/errors.js'
import type { CreateTask } from '../inputs/read.js'
import { revokeUnheld } from '../platform/create-life.js'
import type { CreateOptions, TokenApi } from '../platform/client.js'
import { newestFirst, tokenLabel, type TokenRecord } from '../shared/records.js'
import { asSentence } from '../shared/text.js'

/** The token, value included (already masked); `reused`: an existing one (nothing was created). */
export type CreateResult = { operation: 'create'; token: TokenRecord; reused: boolean }

/**
 * Creates a token, or with ifExists `reuse` returns the newest active token with
 * exactly this name, or with `fail` refuses when one exists. Only `create` skips
 * the look at the list, so that the usual path stays at two requests.
 */
export async function create(
  client: TokenApi,
  { name, ifExists, revokeOnExit }: CreateTask,
  record?: CreateOptions['record'],
): Promise<CreateResult> {
  const tokens = ifExists === 'create' ? [] : await client.listTokens()
  const [existing] = newestFirst(tokens.filter((t) => t.name === name && t.state === 'active'))
  if (existing === undefined) {
    const token = await client.createToken(name, { when: revokeOnExit, record })
    return { operation: 'create', token, reused: false }
  }
  const which = `an active token named '${name}' exists already: ${existing.id}, created ${existing.createdAt ?? 'at an unknown time'}`
  if (ifExists === 'fail') throw new ActionError(`${which}, and ifExists is fail.`)
  if (existing.tokenValue === undefined)
    throw new ActionError(
      `${which}, but the platform did not return its value, so it cannot be reused.`,
    )
  // Nothing is recorded for the post step: a reused token was never this step's.
  return { operation: 'create', token: existing, reused: true }
}

/**
 * The failure of a step that could not hand a token's value on (a runner file that could not
 * be written, a value too large for an output). A new token nobody will ever have the value
 * of is revoked at once (revokeUnheld); a reused one is not this step's to revoke.
 */
export async function handOnFailed(
  client: TokenApi,
  { token, reused }: CreateResult,
  error: unknown,
): Promise<ActionError> {
  const why = asSentence(messageOf(error))
  if (reused) return new ActionError(`${why} The reused ${tokenLabel(token)} stays active.`)
  const revoked = await revokeUnheld((id) => client.revokeToken(id), token)
  return new ActionError(
    `${why} The value of the new ${tokenLabel(token)} was not handed on. ${revoked}`,
  )
}
