// Markdown for the job summary: text from outside escaped, and cut where no tag, escape or character is split.
import { lazyRegExp } from '../shared/text.js'

// What must stay whole when Markdown is cut: an HTML tag, an escape, one character.
const PIECE = /<(\/?)([a-z]+)>|&#?[a-z0-9]+;|[\s\S]/giu

/**
 * `markdown` if it fits in `maxBytes`, else its start with `...` and the closing tags of
 * the tags it leaves open; undefined when not even that fits.
 */
export function cutMarkdown(markdown: string, maxBytes: number): string | undefined {
  if (Buffer.byteLength(markdown) <= maxBytes) return markdown
  const closers = (open: readonly string[]) => open.reduce((all, tag) => `</${tag}>${all}`, '')
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
 * letters or digits it cannot, and names like `GW_TOKEN` stay as they are. `value` is on
 * one line already (field).
 */
export function escapeMarkdown(value: string): string {
  if (!MAYBE_SPECIAL.test(value)) return value
  return value.replace(markdownSpecial(), (c) => `&#${c.charCodeAt(0)};`)
}
