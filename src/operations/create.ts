// The create operation: a new token, or with ifExists an existing one reused or refused.
import { ActionError, messageOf } from '../shared/errors.js'
import type { CreateTask } from '../inputs/task.js'
import type { TokenApi } from '../platform/token-api.js'
import { newestFirst, tokenLabel, type TokenRecord } from '../shared/records.js'
import { asSentence } from '../shared/text.js'

export interface CreateResult {
  operation: 'create'
  /** The token, value included (already masked). */
  token: TokenRecord
  /** An existing token was returned (ifExists: reuse); nothing was created. */
  reused: boolean
}

/**
 * What a create tells as it goes, the moment it knows (revokeOnExit): the post step
 * revokes, or looks for, the token from what was told (post/state.ts writes it down).
 */
export interface CreateNotes {
  /** Just before the create is sent: if its answer is lost, the post step looks for it. */
  sending(name: string): void
  /** An attempt got no answer and the create was sent again: that token may still land. */
  answerLost(): void
  /** The platform made the token: the post step revokes it by its id. */
  created(token: TokenRecord): void
}

/**
 * Creates a token, or with ifExists `reuse` returns the newest active token with
 * exactly this name, or with `fail` refuses when one exists. Only `create` skips
 * the look at the list, so that the usual path stays at two requests.
 */
export async function create(
  client: TokenApi,
  task: CreateTask,
  notes?: CreateNotes,
): Promise<CreateResult> {
  const { name, ifExists } = task
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
      // Nothing is noted: a reused token was never this step's, and no create is sent.
      return { operation: 'create', token: existing, reused: true }
    }
  }
  if (notes === undefined)
    return { operation: 'create', token: await client.createToken(name), reused: false }
  notes.sending(name)
  const token = await client.createToken(name, {
    onLostAnswer: () => {
      notes.answerLost()
    },
  })
  const result: CreateResult = { operation: 'create', token, reused: false }
  try {
    notes.created(token)
  } catch (error) {
    // The post step could not be told to revoke it: revoked at once, as nobody will.
    throw await revokeUnhanded(client, result, error)
  }
  return result
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
  const why = asSentence(messageOf(error))
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
