// @ts-check
/**
 * The workflow commands the GitHub runner reads from what a step prints, parsed the way
 * actions/runner does it (ActionCommandManager, ActionCommand.TryParseV2 and TryParse):
 *
 * - `::name key=value,key=value::data`, when the line starts with `::` once leading
 *   whitespace is trimmed (TryParseV2);
 * - else the legacy `##[name key=value;key=value]data`, found ANYWHERE in the line
 *   (TryParse uses IndexOf("##[")): `text ##[error]boom` is an error annotation;
 * - the name must be a registered command, in any case (`##[ERROR]`), else the line is
 *   plain text;
 * - `stop-commands` with data TOKEN stops all command processing (`add-mask` included)
 *   until a command named TOKEN, in either syntax, resumes it;
 * - `add-mask` masks its data in every line printed after it.
 *
 * .NET compares with the current culture (ICU), which passes over characters that weigh
 * nothing: `#\u200B#[` is found as `##[`, and `\u200B::` starts with `::`. IGNORABLE is a
 * superset of those; a legacy command is looked for at every place where one could start,
 * and lines end at `\r\n`, `\n` or a lone `\r` (StreamReader.ReadLine): so this parser
 * finds at least every command the runner finds, and perhaps some it would not.
 */

/** Every command the runner registers, and stop-commands, which it handles itself. */
export const RUNNER_COMMANDS = [
  'add-mask',
  'add-path',
  'set-env',
  'set-output',
  'save-state',
  'add-matcher',
  'remove-matcher',
  'warning',
  'error',
  'notice',
  'debug',
  'group',
  'endgroup',
  'echo',
  'internal-set-repo-path',
  'stop-commands',
]

const IGNORABLE =
  '\\p{Cf}\\p{M}\\p{Default_Ignorable_Code_Point}\\x00-\\x08\\x0e-\\x1f\\x7f-\\x9f\\u0640\\u07fa\\u180a\\u1cd3\\ufe73'
const V2_START = new RegExp(`^[\\s${IGNORABLE}]*:[${IGNORABLE}]*:`, 'u')
const V2_END = new RegExp(`:[${IGNORABLE}]*:`, 'u')
const LEGACY_START = new RegExp(`#[${IGNORABLE}]*#[${IGNORABLE}]*\\[`, 'gu')

/**
 * @typedef {object} WorkflowCommand
 * @property {string} command
 * @property {Record<string, string>} properties
 * @property {string} message the data, unescaped
 * @property {'v2' | 'legacy'} syntax
 * @property {'stdout' | 'stderr'} stream
 * @property {number} line index of the line in its stream
 */

/**
 * Reads the commands in a step's output, stdout then stderr (the runner reads both),
 * and renders the log as the workflow author sees it.
 * @param {{ stdout: string, stderr?: string }} output
 * @param {{ debug?: boolean }} [options]
 */
export function readWorkflowCommands({ stdout, stderr = '' }, { debug = false } = {}) {
  /** @type {WorkflowCommand[]} */
  const commands = []
  /** @type {string[]} values registered by an add-mask that the runner processed */
  const masked = []
  /** @type {string[]} */
  const shown = []
  // Names compare without regard to case (StringComparer.OrdinalIgnoreCase): kept in lower case.
  const registered = new Set(RUNNER_COMMANDS)
  /** @type {string | undefined} set while commands are stopped */
  let stopToken

  for (const [stream, text] of /** @type {const} */ ([
    ['stdout', stdout],
    ['stderr', stderr],
  ])) {
    if (stream === 'stderr' && text === '') continue
    text.split(/\r\n|\r|\n/).forEach((line, index) => {
      const parsed = parseV2(line, registered) ?? parseLegacy(line, registered)
      if (parsed === undefined) {
        shown.push(mask(line, masked))
        return
      }
      if (stopToken !== undefined) {
        if (parsed.command === stopToken) {
          registered.delete(stopToken)
          stopToken = undefined
        } else {
          shown.push(mask(line, masked))
        }
        return
      }
      const command = { ...parsed, stream, line: index }
      commands.push(command)
      if (command.command === 'stop-commands') {
        stopToken = command.message.toLowerCase()
        registered.add(stopToken)
      } else if (command.command === 'add-mask') {
        if (command.message.trim() !== '') masked.push(command.message)
      } else if (command.command === 'debug') {
        if (debug) shown.push(mask(`##[debug]${command.message}`, masked))
      } else if (['error', 'warning', 'notice'].includes(command.command)) {
        const label = command.command[0]?.toUpperCase() + command.command.slice(1)
        shown.push(mask(`${label}: ${command.message}`, masked))
      }
    })
  }
  /** @param {string} name */
  const of = (name) => commands.filter((c) => c.command === name).map((c) => c.message)
  return {
    commands,
    masked,
    log: shown.join('\n'),
    errors: of('error'),
    warnings: of('warning'),
    notices: of('notice'),
  }
}

/**
 * `::name props::data` (TryParseV2): the line, trimmed at its start, starts with `::`;
 * the next `::` ends the command and its properties.
 * @param {string} line
 * @param {Set<string>} registered
 */
function parseV2(line, registered) {
  const start = V2_START.exec(line)
  if (start === null) return undefined
  const rest = line.slice(start[0].length)
  const end = V2_END.exec(rest)
  if (end === null) return undefined
  const info = rest.slice(0, end.index)
  const space = info.indexOf(' ')
  const command = (space < 0 ? info : info.slice(0, space)).toLowerCase()
  if (!registered.has(command)) return undefined
  return {
    command,
    properties: properties(space < 0 ? '' : info.slice(space + 1), ',', unescapeProperty),
    message: unescapeData(rest.slice(end.index + end[0].length)),
    syntax: /** @type {const} */ ('v2'),
  }
}

/**
 * `##[name props]data` anywhere in the line (TryParse): from the first `##[`, the first
 * `]` after it ends the command and its properties. Every place where a `##[` could start
 * is tried, the plain `##[` among them, as IGNORABLE may find a first one the runner does
 * not.
 * @param {string} line
 * @param {Set<string>} registered
 */
function parseLegacy(line, registered) {
  const starts = [...line.matchAll(LEGACY_START)].map((match) => match.index + match[0].length)
  for (let at = line.indexOf('##['); at >= 0; at = line.indexOf('##[', at + 1)) starts.push(at + 3)
  for (const from of starts) {
    const end = line.indexOf(']', from)
    if (end < 0) continue
    const info = line.slice(from, end)
    const space = info.indexOf(' ')
    const command = (space < 0 ? info : info.slice(0, space)).toLowerCase()
    if (!registered.has(command)) continue
    return {
      command,
      properties: properties(space < 0 ? '' : info.slice(space + 1), ';', unescapeLegacy),
      message: unescapeLegacy(line.slice(end + 1)),
      syntax: /** @type {const} */ ('legacy'),
    }
  }
  return undefined
}

/**
 * @param {string} text
 * @param {string} separator
 * @param {(value: string) => string} unescape
 */
function properties(text, separator, unescape) {
  /** @type {Record<string, string>} */
  const found = {}
  for (const pair of text.split(separator)) {
    const equals = pair.indexOf('=')
    if (equals > 0) found[pair.slice(0, equals)] = unescape(pair.slice(equals + 1))
  }
  return found
}

/**
 * @param {string} line
 * @param {string[]} secrets
 */
function mask(line, secrets) {
  let result = line
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) {
    if (secret !== '') result = result.split(secret).join('***')
  }
  return result
}

/** @param {string} text */
function unescapeData(text) {
  return text.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%')
}

/** @param {string} text */
function unescapeProperty(text) {
  return unescapeData(text).replace(/%3A/g, ':').replace(/%2C/g, ',')
}

/** @param {string} text */
function unescapeLegacy(text) {
  return text
    .replace(/%3B/g, ';')
    .replace(/%0D/g, '\r')
    .replace(/%0A/g, '\n')
    .replace(/%5D/g, ']')
    .replace(/%25/g, '%')
}
