// Secrets: masked in the log the moment they are known, and scrubbed from every text the action builds.
import { isAscii, lazyRegExp } from './text.js'

// Fields that hold a secret wherever they turn up in the platform's answers, error bodies
// included: masked, and scrubbed in their exact forms. Only what the action itself sends
// (the client secret, the access token it uses) is scrubbed piece by piece too: a server
// may echo it in any form, and it is short. A value a server sends is as long as the
// server likes (an 18 MB refresh_token in an error body), and cutting it into pieces
// would cost time and memory without end.
const SECRET_FIELDS = new Set([
  'access_token',
  'accessToken',
  'refresh_token',
  'refreshToken',
  'id_token',
  'secret',
  'clientSecret',
  'tokenValue',
])

/** The shortest piece of a sent secret that is scrubbed wherever it appears. */
const PIECE_LENGTH = 8
/** Pieces are taken from this much of a sent value at most (a JWT is a few KB). */
const MAX_PIECED = 16 * 1024
/** A value longer than this is scrubbed in its exact form only, not in its encodings. */
const MAX_ENCODED = 64 * 1024

/** Masks secrets in the runner's log and scrubs them out of any text we build. */
export interface SecretMasker {
  /**
   * Registers a secret: masked in the log from now on, scrubbed from messages. A
   * secret the action sends (the default) is also scrubbed piecewise.
   */
  add(value: string | undefined, kind?: 'sent' | 'received'): void
  /** Registers every string held by a secret field anywhere in a parsed JSON answer. */
  addFrom(json: unknown): void
  /** Replaces every known secret, in any of its encoded forms, with `***`. */
  scrub(text: string): string
}

export class Secrets implements SecretMasker {
  private readonly values = new Set<string>()
  private readonly sent = new Set<string>()
  private cachedForms: string[] | undefined
  private cachedPieces: Set<string> | undefined

  /** @param mask tells the runner to mask a value (`core.setSecret`). */
  constructor(private readonly mask: (value: string) => void) {}

  add(value: string | undefined, kind: 'sent' | 'received' = 'sent'): void {
    // A blank value is no secret; masking it would mask every run of spaces in the log.
    if (value === undefined || value.trim() === '') return
    if (kind === 'sent' && !this.sent.has(value)) {
      this.sent.add(value)
      this.cachedPieces = undefined
    }
    if (this.values.has(value)) return
    // Mask first: the runner hides a value only from the moment it reads `::add-mask::`.
    this.mask(value)
    // The runner masks line by line: a value of several lines is masked whole (for the
    // rare line that holds it all) and each of its lines too, so that echoing it shows none.
    if (/[\r\n]/.test(value)) {
      for (const line of value.split(/\r\n|\r|\n/)) {
        if (line.trim() !== '' && !this.values.has(line)) {
          this.mask(line)
          this.values.add(line)
        }
      }
    }
    this.values.add(value)
    this.cachedForms = undefined
  }

  addFrom(json: unknown): void {
    // Breadth first, without recursion: a list of thousands of records is one level deep,
    // and a body nested thousands of levels deep must not overflow the stack.
    const pending = [json]
    for (let i = 0; i < pending.length; i++) {
      const value = pending[i]
      if (typeof value !== 'object' || value === null) continue
      // for...in, not Object.entries: no array per record of a list of thousands.
      const fields = value as Record<string, unknown>
      for (const key in fields) {
        const field = fields[key]
        if (typeof field === 'string') {
          if (SECRET_FIELDS.has(key)) this.add(field, 'received')
        } else if (typeof field === 'object' && field !== null) {
          pending.push(field)
        }
      }
    }
  }

  /**
   * Scrubs the text as it is, and, when the text holds HTML character references or
   * %-escapes, its decoded form too: a server may echo a secret as `&#97;&#98;...` or
   * with some characters escaped. Then any run of PIECE_LENGTH or more characters of a
   * sent secret is removed, also across line breaks and spaces.
   */
  scrub(text: string): string {
    if (this.values.size === 0) return text
    let result = this.replaceForms(text)
    const decoded = decodeReferences(result)
    if (decoded !== result) {
      const scrubbed = this.replaceForms(decoded)
      const pieces = this.removePieces(scrubbed)
      // The decoded text is shown only when it held a secret: otherwise the text stays as sent.
      if (pieces !== decoded) return pieces
    }
    result = this.removePieces(result)
    return result
  }

  private replaceForms(text: string): string {
    let result = text
    for (const form of this.forms()) {
      if (result.includes(form)) result = result.split(form).join('***')
    }
    return result
  }

  /**
   * Every secret as it is, JSON-escaped (with and without `\\/`) and URL-encoded (upper- and lower-case hex, and
   * `+` for a space), longest first so that a secret containing another is replaced
   * whole. Made when first needed after a secret was added: a list brings thousands.
   */
  private forms(): string[] {
    if (this.cachedForms === undefined) {
      const forms = new Set<string>()
      for (const value of this.values) {
        forms.add(value)
        if (value.length > MAX_ENCODED) continue
        const url = encodeURIComponent(value)
        const lower = url.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase())
        const json = JSON.stringify(value).slice(1, -1)
        forms.add(value).add(json).add(json.replace(/\//g, '\\/')).add(url).add(lower)
        forms.add(url.replace(/%20/g, '+')).add(lower.replace(/%20/g, '+'))
      }
      this.cachedForms = [...forms].sort((a, b) => b.length - a.length)
    }
    return this.cachedForms
  }

  /**
   * Removes every run of PIECE_LENGTH or more characters of a sent secret. Spaces, line
   * breaks and `+` are ignored on both sides, so a secret split over two lines, or with
   * `+` for its spaces, is still found.
   */
  private removePieces(text: string): string {
    const pieces = this.pieces()
    // A fast path: with no sent secret there is nothing to find, and the text may be a 64 KiB body.
    if (pieces.size === 0) return text
    // The text without what is ignored, and where each of its characters came from.
    const kept: string[] = []
    const from: number[] = []
    const ignored = isAscii(text) ? ASCII_IGNORED : ignoredOne()
    for (let i = 0; i < text.length; i++) {
      const char = text.charAt(i)
      if (ignored.test(char)) continue
      kept.push(char)
      from.push(i)
    }
    const compact = kept.join('')
    const hidden = new Uint8Array(text.length)
    let found = false
    for (let i = 0; i + PIECE_LENGTH <= compact.length; i++) {
      if (!pieces.has(compact.slice(i, i + PIECE_LENGTH))) continue
      found = true
      const start = from[i] ?? 0
      const end = from[i + PIECE_LENGTH - 1] ?? start
      hidden.fill(1, start, end + 1)
    }
    if (!found) return text
    let result = ''
    for (let i = 0; i < text.length; i++) {
      if (hidden[i] === 0) result += text.charAt(i)
      else if (i === 0 || hidden[i - 1] === 0) result += '***'
    }
    return result
  }

  /** Every PIECE_LENGTH-character piece of the sent secrets, ignored characters left out. */
  private pieces(): Set<string> {
    if (this.cachedPieces === undefined) {
      const pieces = new Set<string>()
      for (const value of this.sent) {
        const head = value.slice(0, MAX_PIECED)
        const compact = head.replace(isAscii(head) ? /[\s+]/g : ignoredAll(), '')
        for (let end = PIECE_LENGTH; end <= compact.length; end++)
          pieces.add(compact.slice(end - PIECE_LENGTH, end))
      }
      this.cachedPieces = pieces
    }
    return this.cachedPieces
  }
}

// What a secret's echo may gain or lose between its characters: whitespace, `+`, and the
// characters that show as nothing (zero-width spaces, soft hyphens, word joiners...).
// Built on first use, and used only on text that is not plain ASCII.
const ASCII_IGNORED = /[\s+]/
const IGNORED_CLASS = '[\\s+\\p{Cf}\\p{Default_Ignorable_Code_Point}]'
const ignoredOne = lazyRegExp(() => new RegExp(IGNORED_CLASS, 'u'))
const ignoredAll = lazyRegExp(() => new RegExp(IGNORED_CLASS, 'gu'))

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }

/** Decodes HTML character references (`&#97;`, `&#x61;`, `&amp;`) and %-escapes. */
function decodeReferences(text: string): string {
  // No fast path for text without `&` or `%`: both scans pass over it quickly (15 ms on 18 MB).
  return text
    .replace(
      /&#(\d{1,7});|&#x([0-9a-f]{1,6});|&(amp|lt|gt|quot|apos);/gi,
      (match, dec, hex, name) => {
        if (typeof name === 'string') return NAMED[name.toLowerCase()] ?? match
        const code = dec !== undefined ? Number(dec) : parseInt(String(hex), 16)
        return code <= 0x10ffff ? String.fromCodePoint(code) : match
      },
    )
    .replace(/(?:%[0-9a-f]{2})+/gi, (escapes) => {
      try {
        return decodeURIComponent(escapes)
      } catch {
        return escapes
      }
    })
}
