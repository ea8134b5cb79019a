// Markdown for the job summary: a builder that stays under a size limit, and escaping of outside text.
import { lazyRegExp, oneLine } from '../shared/text.js'

/**
 * The action's own bound on a step summary. The runner documents 1 MiB, and may drop a
 * summary close to it without a word (docs/PLATFORM-API.md section 8).
 */
export const SUMMARY_LIMIT_BYTES = 128 * 1024
// Table rows stop this far short of the limit, leaving room for the headings and notes
// that follow them (a few hundred bytes each, three tables at most).
const RESERVE_BYTES = 4 * 1024
/**
 * A Markdown summary that stays under the runner's limit in bytes whatever it is given:
 * everything is counted as it is added. A table that would pass the budget stops early
 * and says how many rows it left out; a heading or paragraph that would pass the limit
 * is cut where no tag, escape or character is split.
 */
export class Summary {
  private text = ''
  private bytes = 0

  constructor(heading: string) {
    this.block(`### ${heading}`)
  }

  paragraph(markdown: string): this {
    this.block(markdown)
    return this
  }

  /**
   * A table under a heading, a row per item, a column per entry of `columns` (its name, and
   * how to make its cell of an item); `whereAll` says where the complete list is. Rows are
   * made only while they fit: a list of thousands is not escaped and dated whole for the
   * few hundred rows a summary can show.
   */
  table<T>(
    heading: string,
    items: readonly T[],
    columns: Record<string, (item: T) => string>,
    whereAll: string,
  ): this {
    if (items.length === 0) return this
    const names = Object.keys(columns)
    const cells = Object.values(columns)
    let shown = 0
    if (
      this.add(`#### ${heading}\n\n| ${names.join(' | ')} |\n|${' --- |'.repeat(names.length)}\n`)
    )
      for (const item of items) {
        if (!this.add(`| ${cells.map((cell) => cell(item)).join(' | ')} |\n`, RESERVE_BYTES)) break
        shown++
      }
    const omitted = items.length - shown
    if (omitted > 0)
      this.add(
        `\n${omitted} more not shown: a step summary must stay under 128 KiB; ${whereAll}.\n`,
      )
    this.add('\n')
    return this
  }

  toString(): string {
    return this.text
  }

  /** Prose and the blank line after it, cut to what is left when it does not fit whole. */
  private block(markdown: string): void {
    if (this.add(`${markdown}\n\n`)) return
    // Cut to leave the reserve, so that a table after it can still say what it left out.
    const cut = cutMarkdown(markdown, SUMMARY_LIMIT_BYTES - 1 - RESERVE_BYTES - this.bytes - 2)
    if (cut !== undefined) this.add(`${cut}\n\n`)
  }

  /** Adds text if it fits with `reserve` bytes to spare; says whether it did. */
  private add(text: string, reserve = 0): boolean {
    const bytes = Buffer.byteLength(text)
    if (this.bytes + bytes + reserve >= SUMMARY_LIMIT_BYTES) return false
    this.text += text
    this.bytes += bytes
    return true
  }
}

// What must stay whole when Markdown is cut: an HTML tag, an escape, one character.
const PIECE = /<(\/?)([a-z]+)>|&#?[a-z0-9]+;|[\s\S]/giu

/**
 * `markdown` if it fits in `maxBytes`, else its start with `...` and the closing tags of
 * the tags it leaves open; undefined when not even that fits.
 */
export function cutMarkdown(markdown: string, maxBytes: number): string | undefined {
  if (Buffer.byteLength(markdown) <= maxBytes) return markdown
  const closers = (open: readonly string[]) =>
    open
      .map((tag) => `</${tag}>`)
      .reverse()
      .join('')
  let open: readonly string[] = []
  let kept = ''
  let bytes = 0
  for (const [piece, slash, tag] of markdown.matchAll(PIECE)) {
    const next = tag === undefined ? open : slash ? open.slice(0, -1) : [...open, tag]
    const size = Buffer.byteLength(piece)
    if (bytes + size + Buffer.byteLength(`...${closers(next)}`) > maxBytes) break
    kept += piece
    bytes += size
    open = next
  }
  const cut = `${kept}...${closers(open)}`
  return Buffer.byteLength(cut) <= maxBytes ? cut : undefined
}

const markdownSpecial = lazyRegExp(() => /[&<>"|`\\*[\]~$]|(?<![\p{L}\p{N}])_|_(?![\p{L}\p{N}])/gu)
// The same characters, `_` anywhere: without any, there is nothing to escape.
const MAYBE_SPECIAL = /[&<>"|`\\*[\]~$_]/

/**
 * Escapes text from the platform for Markdown and HTML, so that a name holding `|`,
 * backticks, `*`, `~`, `$` (math), brackets or tags cannot break the table, inject markup
 * or show as something else. `_` only where it could start or end emphasis: between two
 * letters or digits it cannot, and names like `GW_TOKEN` stay as they are.
 */
export function escapeMarkdown(value: string): string {
  const line = oneLine(value)
  if (!MAYBE_SPECIAL.test(line)) return line
  return line.replace(markdownSpecial(), (c) => `&#${c.charCodeAt(0)};`)
}
