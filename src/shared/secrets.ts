// Secrets: masked in the log the moment they are known, and scrubbed from every text the action builds.
import { isAscii, lazyRegExp } from './text.js'

// Fields that hold a secret wherever they turn up in the platform's answers, error bodies
// included: masked, and scrubbed whole. Only what the action itself sends (the client
// secret, the access token it uses) is scrubbed piece by piece too: a server may echo it in
// any form, and it is short; a value a server sends may be as long as it likes (an 18 MB
// refresh token), and cutting it into pieces would cost time and memory without end.
const SECRET_FIELD =
  /^(?:access_token|accessToken|refresh_token|refreshToken|id_token|secret|clientSecret|tokenValue)$/

/** The length of a piece of a sent secret: any run this long of its characters is scrubbed. */
const PIECE_LENGTH = 8
/** Pieces are taken from this much of a sent value at most (a JWT is a few KB). */
const MAX_PIECED = 16 * 1024

/** What the rest of the action sees of Secrets: a fake in tests needs no more. */
export type SecretMasker = Pick<Secrets, 'add' | 'addFrom' | 'scrub'>

/**
 * Masks secrets in the runner's log and scrubs them out of any text we build, by one rule:
 * a secret is removed from the text as it is and from the text decoded (%-escapes in either
 * case, `+` for a space, JSON escapes, HTML references), and so is any run of the text whose
 * bytes hold one once decoded: a run of base64 or base64url (padded or not), or of hex in
 * either case, its byte pairs perhaps split by a separator (` `, `:`, `,`, `-`) or prefixed
 * by `0x` or `\x` (an `id:secret` credential, a hex dump). A secret the action sends is also
 * found in pieces: any run of 8 of its characters (all of it, when it is shorter), across
 * spaces, line breaks and characters that show as nothing. Other runs (ids, dates, hashes)
 * are left as they are, and the decoded text is shown only when it held a secret.
 *
 * Every step is linear in the text (the 64 KiB of an answer read for its detail take a
 * tenth of a second), and only sent values are cut into pieces: an 18 MB token from an
 * answer is registered at once.
 */
export class Secrets {
  private readonly values = new Set<string>()
  private readonly sent = new Set<string>()
  /** Every piece of the sent secrets, ignored characters left out. */
  private readonly pieces = new Set<string>()
  /** The lengths of the pieces, longest first: PIECE_LENGTH, and that of each shorter secret. */
  private lengths: number[] = []
  private longestFirst: string[] | undefined

  /** @param mask tells the runner to mask a value (`core.setSecret`). */
  constructor(private readonly mask: (value: string) => void) {}

  /**
   * Registers a secret: masked in the log from now on, scrubbed from messages. A secret the
   * action sends (the default) is also scrubbed piece by piece, in any encoding.
   */
  add(value: string | undefined, kind: 'sent' | 'received' = 'sent'): void {
    if (value === undefined) return
    // Masked first: the runner hides a value only from the moment it reads `::add-mask::`.
    // It masks line by line: a value of several lines is masked whole and each line too.
    // A blank one is no secret: masking it would mask every run of spaces in the log.
    for (const part of [value, ...value.split(/\r\n|\r|\n/)]) {
      if (part.trim() === '' || this.values.has(part)) continue
      this.mask(part)
      this.values.add(part)
      this.longestFirst = undefined
    }
    if (kind === 'received' || this.sent.has(value)) return
    this.sent.add(value)
    const { kept } = compact(value.slice(0, MAX_PIECED))
    // A secret shorter than a piece is a piece of its own: found whole, in every form.
    const length = Math.min(PIECE_LENGTH, kept.length)
    // Nothing is left of a value of `+` and spaces: a blank one is no secret, and one of `+`
    // is scrubbed whole only.
    if (length === 0) return
    for (let i = 0; i + length <= kept.length; i++) this.pieces.add(kept.slice(i, i + length))
    this.lengths = [...new Set([...this.lengths, length])].sort((a, b) => b - a)
  }

  /** Registers every string held by a secret field anywhere in a parsed JSON answer. */
  addFrom(json: unknown): void {
    // Breadth first, without recursion: a body nested thousands of levels deep is no crash.
    const pending = [json]
    for (const value of pending) {
      if (typeof value !== 'object' || value === null) continue
      // for...in, not Object.entries: no array per record of a list of thousands.
      const fields = value as Record<string, unknown>
      for (const key in fields) {
        const field = fields[key]
        if (typeof field === 'object') pending.push(field)
        else if (typeof field === 'string' && SECRET_FIELD.test(key)) this.add(field, 'received')
      }
    }
  }

  /** Replaces every known secret, in any form a server may echo it in, with `***`. */
  scrub(text: string): string {
    if (this.values.size === 0) return text
    // Whole values first: a piece removed before decoding would break a secret's escapes.
    const exact = this.removeWhole(text)
    const decoded = unescape(exact)
    // The decoded text is shown only when it held a secret.
    const hidden = decoded === exact ? decoded : this.hide(decoded)
    return hidden === decoded ? this.hide(exact) : hidden
  }

  private removeWhole(text: string): string {
    this.longestFirst ??= [...this.values].sort((a, b) => b.length - a.length)
    return this.longestFirst.reduce((result, value) => result.replaceAll(value, '***'), text)
  }

  /** The text without the secrets, whole, in pieces, or inside a run that encodes one. */
  private hide(text: string): string {
    const whole = this.removeWhole(text)
    // Only received secrets: no piece to look for, as it is or encoded.
    const shortest = this.lengths.at(-1)
    if (shortest === undefined) return whole
    // A run's bytes, read as Latin-1 and as UTF-8, are checked like any decoded text; too few
    // bytes to hold the shortest piece, they are not decoded.
    const holdsPiece = (bytes: Buffer) =>
      bytes.length >= shortest &&
      [bytes.toString('latin1'), bytes.toString('utf8')].some((t) => this.removePieces(t) !== t)
    // One pass per alphabet: a run of hex digits alone is read both ways.
    return this.removePieces(whole)
      .replace(HEX_RUN, (run) => (holdsPiece(Buffer.from(hexDigits(run), 'hex')) ? '***' : run))
      .replace(BASE64_RUN, (run) => (holdsPiece(Buffer.from(run, 'base64')) ? '***' : run))
  }

  /** The text without any piece of a sent secret (a longer run of it is pieces that overlap). */
  private removePieces(text: string): string {
    const { kept, from } = compact(text)
    let result = ''
    let end = -1 // where the text last hidden ends
    for (let i = 0; i < kept.length; i++) {
      // The longest piece that starts here.
      const n = this.lengths.find(
        (n) => i + n <= kept.length && this.pieces.has(kept.slice(i, i + n)),
      )
      if (n === undefined) continue
      const start = from[i] ?? 0
      // Pieces that overlap or touch are hidden as one.
      if (start > end) result += `${text.slice(Math.max(end, 0), start)}***`
      end = Math.max(end, (from[i + n - 1] ?? 0) + 1)
    }
    return end < 0 ? text : result + text.slice(end)
  }
}

// What a secret's echo may gain or lose between its characters: whitespace, `+`, and, in
// text that is not plain ASCII, the characters that show as nothing (zero-width spaces...).
const IGNORED = lazyRegExp(() => /[\s+\p{Cf}\p{Default_Ignorable_Code_Point}]/u)

/** The text without what is ignored, and where each of its characters came from. */
function compact(text: string): { kept: string; from: number[] } {
  const ignored = isAscii(text) ? /[\s+]/ : IGNORED()
  const from: number[] = []
  for (let i = 0; i < text.length; i++) if (!ignored.test(text.charAt(i))) from.push(i)
  return { kept: from.map((i) => text.charAt(i)).join(''), from }
}

// A run of base64 or base64url (Node decodes either), and a run of hex byte pairs, each
// perhaps prefixed by `0x` or `\x`, perhaps split by a separator (`:`, `,` or `-`, and a space
// or line break). A hex run starts and ends at the edge of a word (`\x` may follow anything):
// `failed: 5a 71` is not the bytes ed 5a 71. Both stay linear: no separator can start a pair,
// and a hex run goes back over its pairs only when it has no separator, a single word.
const BASE64_RUN = /[\w+/-]+={0,2}/g
const HEX_RUN = /(?:\\x|(?<!\w)(?:0x)?)[0-9a-f]{2}(?:[:,-]?\s?(?:0x|\\x)?[0-9a-f]{2})*(?!\w)/gi

/**
 * The hex digits of a hex run, its prefixes and separators left out. An `x` in a run is always
 * a prefix's: it follows a pair, or starts the run.
 */
const hexDigits = (run: string): string => run.replace(/[0\\]x|[^0-9a-f]/gi, '')

const HTML_REFERENCE = /&#(\d{1,7});|&#x([0-9a-f]{1,6});|&(amp|lt|gt|quot|apos);/gi
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" }

/**
 * The text with its escapes decoded: JSON's (`\"`, `\/`, `\u0041`), HTML references
 * (`&#97;`, `&#x61;`, `&amp;` in any case) and %-escapes, word by word: a pattern that
 * looked for the escape inside a word would go over a long word once per character.
 */
function unescape(text: string): string {
  return text
    .replace(/\\(?:u([0-9a-f]{4})|(["\\/]))/gi, (_, hex: string | undefined, char: string) =>
      hex === undefined ? char : String.fromCharCode(parseInt(hex, 16)),
    )
    .replace(HTML_REFERENCE, (match, dec, hex, name) => {
      if (typeof name === 'string') return NAMED[name.toLowerCase()] ?? match
      const code = dec !== undefined ? Number(dec) : parseInt(String(hex), 16)
      return code <= 0x10ffff ? String.fromCodePoint(code) : match
    })
    .replace(/[^\s"'<>&=?]+/g, (word) => (/%[0-9a-f]{2}/i.test(word) ? decodeWord(word) : word))
}

/**
 * A word that holds a %-escape, decoded: its `+` are spaces; a run of escapes that is no
 * UTF-8 is decoded where it is ASCII and left as it is otherwise.
 */
function decodeWord(word: string): string {
  return word.replace(/\+/g, ' ').replace(/(?:%[0-9a-f]{2})+/gi, (escapes) => {
    try {
      return decodeURIComponent(escapes)
    } catch {
      return escapes.replace(/%[0-7][0-9a-f]/gi, (one) => decodeURIComponent(one))
    }
  })
}
