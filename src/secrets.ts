// Fields that hold a secret wherever they turn up in the platform's answers, error
// bodies included: tokens of the auth service, token values, an echoed client secret.
const SECRET_FIELDS = new Set([
  'access_token',
  'accessToken',
  'refresh_token',
  'refreshToken',
  'id_token',
  'tokenValue',
  'secret',
  'clientSecret',
])

/** Masks secrets in the runner's log and scrubs them out of any text we build. */
export interface SecretMasker {
  /** Registers a secret: masked in the log from now on, scrubbed from messages. */
  add(value: string | undefined): void
  /** Registers every string held by a secret field anywhere in a parsed JSON answer. */
  addFrom(json: unknown): void
  /** Replaces every known secret (and its JSON- or URL-encoded form) with `***`. */
  scrub(text: string): string
}

export class Secrets implements SecretMasker {
  private readonly values = new Set<string>()
  private cachedForms: string[] | undefined

  /** @param mask tells the runner to mask a value (`core.setSecret`). */
  constructor(private readonly mask: (value: string) => void) {}

  add(value: string | undefined): void {
    if (!value || this.values.has(value)) return
    // Mask first: the runner hides a value only from the moment it reads `::add-mask::`.
    this.mask(value)
    this.values.add(value)
    this.cachedForms = undefined
  }

  addFrom(json: unknown): void {
    // Breadth first, without recursion: a list of thousands of records is one level deep.
    const pending = [json]
    for (let i = 0; i < pending.length; i++) {
      const value = pending[i]
      if (typeof value !== 'object' || value === null) continue
      // for...in, not Object.entries: no array per record of a list of thousands.
      const fields = value as Record<string, unknown>
      for (const key in fields) {
        const field = fields[key]
        if (typeof field === 'string') {
          if (SECRET_FIELDS.has(key)) this.add(field)
        } else if (typeof field === 'object' && field !== null) {
          pending.push(field)
        }
      }
    }
  }

  scrub(text: string): string {
    if (this.values.size === 0) return text
    let result = text
    for (const form of this.forms()) result = result.split(form).join('***')
    return result
  }

  /**
   * Every secret as it is, JSON-escaped and URL-encoded (a secret quoted in a JSON body
   * or a URL no longer looks like itself), longest first so that a secret containing
   * another is replaced whole. Made when first needed after a secret was added: a list
   * brings thousands, and a rate-limited cleanup scrubs every 429.
   */
  private forms(): string[] {
    if (this.cachedForms === undefined) {
      const forms = new Set<string>()
      for (const value of this.values) {
        forms.add(value).add(JSON.stringify(value).slice(1, -1)).add(encodeURIComponent(value))
      }
      this.cachedForms = [...forms].sort((a, b) => b.length - a.length)
    }
    return this.cachedForms
  }
}
