// What the operations see of the platform: one method per API call (PlatformClient is the real one).
import type { TokenRecord } from '../records.js'

/** A revoke that succeeded, or found the token revoked already. */
export interface RevokeOutcome {
  token: TokenRecord
  /** Revoked before this call: this call changed nothing. */
  alreadyRevoked: boolean
}

export interface RevokeOptions {
  /** Told of each 429 and the wait it brings, so that a batch can slow down. */
  onThrottle?: (delayMs: number) => void
  /**
   * Finds a token's current record after the platform refused to revoke it. By
   * default one fresh list per refusal; a batch can share one list for all.
   */
  lookup?: (tokenId: string) => Promise<TokenRecord | undefined>
}

export interface TokenApi {
  createToken(name: string): Promise<TokenRecord>
  listTokens(): Promise<TokenRecord[]>
  revokeToken(tokenId: string, options?: RevokeOptions): Promise<RevokeOutcome>
  /**
   * The platform's time at a time of the runner's clock, by the Date header of its latest
   * answer; undefined when no answer carried one (a platform or a proxy may leave it out).
   */
  platformTime(runnerTime: number): number | undefined
}
