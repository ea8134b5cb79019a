/** Masks secrets in the runner's log and scrubs them out of any text we build. */
export interface SecretMasker {
  /** Registers a secret: masked in the log from now on, scrubbed from messages. */
  add(value: string | undefined): void
  /** Replaces every known secret (and its JSON- or URL-encoded form) with `***`. */
  scrub(text: string): string
}

export class Secrets implements SecretMasker {
  private readonly forms = new Set<string>()
  private readonly values = new Set<string>()

  /** @param mask tells the runner to mask a value (`core.setSecret`). */
  constructor(private readonly mask: (value: string) => void) {}

  add(value: string | undefined): void {
    if (!value || this.values.has(value)) return
    // Mask first: the runner hides a value only from the moment it reads `::add-mask::`.
    this.mask(value)
    this.values.add(value)
    this.forms.add(value)
    // A secret quoted inside a JSON body or a URL no longer looks like itself.
    this.forms.add(JSON.stringify(value).slice(1, -1))
    this.forms.add(encodeURIComponent(value))
  }

  scrub(text: string): string {
    if (this.forms.size === 0) return text
    // Longest first, so a secret that contains another is replaced whole.
    const forms = [...this.forms].sort((a, b) => b.length - a.length)
    let result = text
    for (const form of forms) result = result.split(form).join('***')
    return result
  }
}
