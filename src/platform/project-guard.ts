// expectedProjectId: a TokenApi that refuses to act on any project but the expected one.
import { ActionError } from '../shared/errors.js'
import { revokeUnheld } from './create-life.js'
import type { CreateOptions, RevokeOptions, RevokeAnswer, TokenApi } from './client.js'
import { nameAndId, type TokenRecord } from '../shared/records.js'
import { oneLine, truncate } from '../shared/text.js'

/**
 * Staging and production use different API clients: with their secrets mixed up, a
 * nightly cleanup would revoke the other project's tokens and cut its mediators off.
 * Every list is checked before anything else happens with it; a token created in
 * another project is revoked at once and never handed on; a revoke checks the
 * token's project first (from a list, unless one was already checked).
 */
export class ProjectGuard implements TokenApi {
  /** Ids of tokens seen in a checked list: their revoke needs no other look. */
  private readonly checked = new Set<string>()

  constructor(
    private readonly api: TokenApi,
    private readonly expected: string,
  ) {}

  async listTokens(): Promise<TokenRecord[]> {
    const tokens = await this.api.listTokens()
    const other = tokens.find((token) => !this.isExpected(token))
    if (other !== undefined)
      throw new ActionError(
        `the platform listed ${nameAndId(other)} of project ${projectOf(other)}, but expectedProjectId is ${this.expected}: these credentials reach another project. Nothing was revoked or created; check clientId, clientSecret and baseUrl.`,
      )
    for (const token of tokens) this.checked.add(token.id.toLowerCase())
    return tokens
  }

  async createToken(name: string, options?: CreateOptions): Promise<TokenRecord> {
    const token = await this.api.createToken(name, options)
    if (this.isExpected(token)) {
      // Its project is known: revoking it at once, if its value cannot be handed on, needs no list.
      this.checked.add(token.id.toLowerCase())
      return token
    }
    const revoked = await revokeUnheld((id) => this.api.revokeToken(id), token)
    throw new ActionError(
      `the new token ${nameAndId(token)} belongs to project ${projectOf(token)}, but expectedProjectId is ${this.expected}: its value was not handed on. ${revoked} Check clientId, clientSecret and baseUrl.`,
    )
  }

  async revokeToken(tokenId: string, options?: RevokeOptions): Promise<RevokeAnswer> {
    // The list check fails on any record of another project, this token's included.
    if (!this.checked.has(tokenId.toLowerCase())) await this.listTokens()
    return this.api.revokeToken(tokenId, options)
  }

  readonly platformTime: TokenApi['platformTime'] = (at) => this.api.platformTime(at)

  private isExpected(token: TokenRecord): boolean {
    return token.projectId?.toLowerCase() === this.expected.toLowerCase()
  }
}

function projectOf(token: TokenRecord): string {
  return token.projectId === undefined ? '(none given)' : truncate(oneLine(token.projectId), 80)
}
