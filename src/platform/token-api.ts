// What the operations see of the platform: one method per API call (PlatformClient is the real one).
import type { TokenRecord } from '../shared/records.js'
import type { CreateFacts } from './lost-create.js'

/** A revoke that succeeded, or found the token revoked already. */
export interface RevokeAnswer {
  token: TokenRecord
  /** Revoked before this call: this call changed nothing. */
  alreadyRevoked: boolean
}

export interface RevokeOptions {
  /**
   * Sent by a scheduler (a cleanup): a 429 with attempts left is thrown as a
   * ThrottledError rather than waited out; `attemptsUsed` counts the earlier sends.
   */
  scheduled?: { attemptsUsed: number }
  /**
   * A refusal, or a success that does not show this token revoked, is settled by the
   * token's record in a list fetched after it. `now` (the default): one list, at once.
   * `later`: thrown as an UnsettledRevokeError, for a batch to settle all of them with
   * one list fetched after the last (settle-revoke.ts).
   */
  settle?: 'now' | 'later'
}

export interface CreateOptions {
  /**
   * Saves what is learnt of the create for the post step, each time a fact is learnt
   * (revokeOnExit; see lost-create.ts): the post step then looks for a lost attempt's token.
   */
  save?: (facts: CreateFacts) => void
}

export interface TokenApi {
  createToken(name: string, options?: CreateOptions): Promise<TokenRecord>
  listTokens(): Promise<TokenRecord[]>
  revokeToken(tokenId: string, options?: RevokeOptions): Promise<RevokeAnswer>
  /**
   * The platform's time at a time of the runner's clock, by the Date header of its latest
   * answer; undefined when no answer carried one (a platform or a proxy may leave it out).
   */
  platformTime(runnerTime: number): number | undefined
}
