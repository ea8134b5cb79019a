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
 * - `add-mask` masks its data in every line printed after it;
 * - `set-output` and `save-state` are still carried out (SetOutputCommandExtension,
 *   SaveStateCommandExtension; a file command for the same name, processed after the step,
 *   wins); `set-env` and `add-path` fail the step unless ACTIONS_ALLOW_UNSECURE_COMMANDS is
 *   `true` (ActionCommandManager.TryProcessCommand: "Unable to process command '...'
 *   successfully.", CommandResult = Failed);
 * - `error`, `warning` and `notice` are written to the log, every one, and kept as
 *   annotations, masked, cut to 4,096 characters and at most 10 of each type per step, the
 *   runner's own included (ExecutionContext.AddIssue).
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

/** The most annotations of one type a step keeps, and the longest message of one. */
const MAX_ANNOTATIONS = 10
const MAX_ANNOTATION_LENGTH = 4096

/** @typedef {{ error: string[], warning: string[], notice: string[] }} Annotations */

/**
 * Reads the commands in a step's output, stdout then stderr (the runner reads both),
 * carries out those that change the step (outputs, state, and the two the runner refuses),
 * and renders the log as the workflow author sees it.
 * @param {{ stdout: string, stderr?: string }} output
 * @param {{ debug?: boolean, allowUnsecure?: boolean }} [options] `allowUnsecure`:
 *   ACTIONS_ALLOW_UNSECURE_COMMANDS is `true` in the step's environment
 */
export function readWorkflowCommands(
  { stdout, stderr = '' },
  { debug = false, allowUnsecure = false } = {},
) {
  /** @type {WorkflowCommand[]} */
  const commands = []
  /** @type {string[]} values registered by an add-mask that the runner processed */
  const masked = []
  /** @type {string[]} */
  const shown = []
  /** @type {Annotations} */
  const annotations = { error: [], warning: [], notice: [] }
  /** @type {Record<string, string>} */
  const outputs = {}
  /** @type {Record<string, string>} */
  const state = {}
  /** @type {Record<string, string>} */
  const env = {}
  /** @type {string[]} */
  const path = []
  let failed = false
  /** An issue: every one written to the log, the first 10 of its type kept, masked and cut. */
  const issue = (/** @type {keyof Annotations} */ type, /** @type {string} */ message) => {
    const label = type[0]?.toUpperCase() + type.slice(1)
    shown.push(mask(`${label}: ${message}`, masked))
    if (annotations[type].length < MAX_ANNOTATIONS) {
      annotations[type].push(mask(message, masked).slice(0, MAX_ANNOTATION_LENGTH))
    }
  }
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
      const name = command.properties.name ?? ''
      if (command.command === 'stop-commands') {
        stopToken = command.message.toLowerCase()
        registered.add(stopToken)
      } else if (command.command === 'add-mask') {
        if (command.message.trim() !== '') masked.push(command.message)
      } else if (command.command === 'debug') {
        if (debug) shown.push(mask(`##[debug]${command.message}`, masked))
      } else if (command.command === 'error' || command.command === 'warning') {
        issue(command.command, command.message)
      } else if (command.command === 'notice') {
        issue('notice', command.message)
      } else if (command.command === 'set-output' || command.command === 'save-state') {
        if (name === '') {
          failed = true
          issue('error', `Unable to process command '${line}' successfully.`)
          issue('error', `Required field 'name' is missing in ##[${command.command}] command.`)
        } else (command.command === 'set-output' ? outputs : state)[name] = command.message
      } else if (command.command === 'set-env' || command.command === 'add-path') {
        if (!allowUnsecure) {
          failed = true
          issue('error', `Unable to process command '${line}' successfully.`)
          issue('error', UNSECURE_DISABLED.replace('{0}', command.command))
        } else if (command.command === 'add-path') path.unshift(command.message)
        else if (name !== '') env[name] = command.message
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
    annotations,
    outputs,
    state,
    env,
    path,
    failed,
  }
}

/** actions/runner's Constants.Runner.UnsupportedCommandMessageDisabled. */
const UNSECURE_DISABLED =
  'The `{0}` command is disabled. Please upgrade to using Environment Files or opt into unsecure command execution by setting the `ACTIONS_ALLOW_UNSECURE_COMMANDS` environment variable to `true`. For more information see: https://github.blog/changelog/2020-10-01-github-actions-deprecating-set-env-and-add-path-commands/'

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
