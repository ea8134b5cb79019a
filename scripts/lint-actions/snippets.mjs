// @ts-check
// Markdown's YAML snippets as workflows, line for line, so that a finding maps back to its line.
import { parse } from 'yaml'

/**
 * @typedef {object} Snippet
 * @property {string} file the Markdown file, relative to the root
 * @property {number} line the line of the Markdown that holds the snippet's first line (1-based)
 * @property {string} text the snippet, without its fences
 */

/**
 * @typedef {object} Wrapped
 * @property {string} text a whole workflow
 * @property {number} lines how many lines come before the snippet's first line
 * @property {number} indent how many spaces each line of the snippet was moved right
 */

/** The job a snippet of steps goes into, after its `on:` line. */
const JOB = ['jobs:', '  snippet:', '    runs-on: ubuntu-latest', '    steps:']
const STEPS_INDENT = 6

/**
 * Every ```yaml (or ```yml) block of a Markdown text, starting at the left margin.
 * @param {string} file
 * @param {string} markdown
 * @returns {Snippet[]}
 */
export function yamlSnippets(file, markdown) {
  const lines = markdown.split('\n')
  /** @type {Snippet[]} */
  const snippets = []
  for (let i = 0; i < lines.length; i++) {
    if (!/^```ya?ml\s*$/.test(lines[i] ?? '')) continue
    const end = lines.findIndex((line, j) => j > i && /^```\s*$/.test(line))
    // An unclosed fence runs to the end of the file, as GitHub renders it.
    const last = end === -1 ? lines.length : end
    snippets.push({ file, line: i + 2, text: `${lines.slice(i + 1, last).join('\n')}\n` })
    i = last
  }
  return snippets
}

/**
 * What a snippet is to the linters: a list of steps, a workflow (a mapping with `jobs:`),
 * or something else (a lone `uses:` line), which they do not read. Throws when it is not YAML.
 * @param {string} text
 * @returns {'steps' | 'workflow' | undefined}
 */
export function snippetKind(text) {
  /** @type {unknown} */
  const value = parse(text)
  if (Array.isArray(value)) return 'steps'
  if (typeof value === 'object' && value !== null && 'jobs' in value) return 'workflow'
  return undefined
}

/**
 * A snippet as a whole workflow, its lines kept as they are (moved right for steps), so that a
 * position in the workflow maps back to one in the snippet: a list of steps goes into one job;
 * a workflow without `on:` gets one.
 * @param {string} text
 * @param {'steps' | 'workflow'} kind
 * @param {string} [on] the value of `on:`, in one line of YAML
 * @returns {Wrapped}
 */
export function wrapSnippet(text, kind, on = 'workflow_dispatch') {
  const trigger = `on: ${on}`
  if (kind === 'steps') {
    const indented = text
      .split('\n')
      .map((line) => (line === '' ? line : `${' '.repeat(STEPS_INDENT)}${line}`))
      .join('\n')
    const header = [trigger, ...JOB]
    return { text: `${header.join('\n')}\n${indented}`, lines: header.length, indent: STEPS_INDENT }
  }
  const value = /** @type {Record<string, unknown>} */ (parse(text))
  if ('on' in value) return { text, lines: 0, indent: 0 }
  return { text: `${trigger}\n${text}`, lines: 1, indent: 0 }
}

/**
 * A position in a wrapped snippet (0-based, as the language service gives it) as a line and
 * column of the Markdown file (1-based). A position in the lines added around the snippet
 * is its first line's.
 * @param {Snippet} snippet
 * @param {Wrapped} wrapped
 * @param {number} line
 * @param {number} character
 */
export function markdownPosition(snippet, wrapped, line, character) {
  if (line < wrapped.lines) return { line: snippet.line, column: 1 }
  return {
    line: snippet.line + line - wrapped.lines,
    column: Math.max(character - wrapped.indent, 0) + 1,
  }
}
