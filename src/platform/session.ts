/** An access token and when to stop using it. */
export interface AccessToken {
  value: string
  /** Renew before this time (ms since the epoch); undefined when the lifetime is unknown. */
  renewAt: number | undefined
}

/**
 * The access token of one run: obtained on first use, shared by concurrent calls
 * (one authentication for all), renewed shortly before it expires, and dropped
 * when the API rejects it.
 */
export class Session {
  private pending: Promise<AccessToken> | undefined

  constructor(
    private readonly obtain: () => Promise<AccessToken>,
    private readonly now: () => number,
  ) {}

  /** A usable access token, authenticating when there is none or it is about to expire. */
  async token(): Promise<string> {
    const current = this.pending
    if (current !== undefined) {
      const token = await current
      if (token.renewAt === undefined || this.now() < token.renewAt) return token.value
      if (this.pending === current) this.pending = undefined
    }
    this.pending ??= this.start()
    return (await this.pending).value
  }

  /** Forgets a token the API rejected, unless a concurrent call has already replaced it. */
  async reject(value: string): Promise<void> {
    const current = this.pending
    const token = await current?.catch(() => undefined)
    if (token?.value === value && this.pending === current) this.pending = undefined
  }

  private start(): Promise<AccessToken> {
    const pending = this.obtain()
    // A failed authentication is not kept: the next call tries again.
    pending.catch(() => {
      if (this.pending === pending) this.pending = undefined
    })
    return pending
  }
}
