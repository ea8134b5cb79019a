// The create operation: a new token, or with ifExists an existing one reused or refused.
import { ActionError, messageOf } from '../shared/errors.js'
import type { CreateTask } from '../inputs/read.js'
import { notHandedOn } from '../platform/lost-create.js'
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
  { name, ifExists }: CreateTask,
  options: CreateOptions = {},
): Promise<CreateResult> {
  const tokens = ifExists === 'create' ? [] : await client.listTokens()
  const [existing] = newestFirst(tokens.filter((t) => t.name === name && t.state === 'active'))
  if (existing === undefined) {
    return { operation: 'create', token: await client.createToken(name, options), reused: false }
  }
  const which = `an active token named '${name}' exists already: ${existing.id}, created ${existing.createdAt ?? 'at an unknown time'}`
  if (ifExists === 'fail') throw new ActionError(`${which}, and ifExists is fail.`)
  if (existing.tokenValue === undefined) {
    throw new ActionError(
      `${which}, but the platform did not return its value, so it cannot be reused.`,
    )
  }
  // Nothing is saved for the post step: a reused token was never this step's.
  return { operation: 'create', token: existing, reused: true }
}

/**
 * A new token whose value could not be handed on (a runner file that could not be
 * written, a value too large for an output): nobody will ever have its value, so it is
 * revoked at once (lost-create.ts). A reused token is not this step's to revoke. Returns
 * the error the step fails with.
 */
export async function revokeUnhanded(
  client: TokenApi,
  { token, reused }: CreateResult,
  error: unknown,
): Promise<ActionError> {
  if (!reused) return notHandedOn((id) => client.revokeToken(id), token, error)
  return new ActionError(
    `${asSentence(messageOf(error))} The reused ${tokenLabel(token)} stays active.`,
  )
}
