// @ts-check
/**
 * The runner's file commands, as actions/runner reads them after a step
 * (src/Runner.Worker/FileCommandManager.cs): GITHUB_OUTPUT, GITHUB_ENV and GITHUB_STATE as
 * `NAME=value` lines and `NAME<<DELIMITER` heredocs (EnvFileKeyValuePairs), GITHUB_PATH as
 * lines to put before PATH (AddPathFileCommand). Read as .NET's File.ReadAllText reads
 * them: a byte-order mark (UTF-8, UTF-16 either way) chooses the encoding and is dropped.
 * On Linux a line ends at `\n` only (ReadLine's `\r\n` branch is `#if OS_WINDOWS`), so a
 * `\r` before it stays in the value. A file that breaks the rules throws: the runner then
 * fails the step, even with exit code 0 (ProcessFiles: "Unable to process file command
 * '<name>' successfully.", CommandResult = Failed).
 */
import { existsSync, readFileSync, statSync } from 'node:fs'

/**
 * A file's text as File.ReadAllText gives it: '' when it does not exist (the runner only
 * logs that, in debug).
 * @param {string} path
 */
export function readRunnerFile(path) {
  let bytes
  try {
    bytes = readFileSync(path)
  } catch (error) {
    if (/** @type {NodeJS.ErrnoException} */ (error).code === 'ENOENT') return ''
    throw error
  }
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf)
    return bytes.subarray(3).toString('utf8')
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return bytes.subarray(2).toString('utf16le')
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    const swapped = Buffer.from(bytes.subarray(2))
    swapped.swap16()
    return swapped.toString('utf16le')
  }
  return bytes.toString('utf8')
}

/**
 * The next line from `index`, and the newline that ended it (null at the end of the text),
 * as EnvFileKeyValuePairs.ReadLine reads one on Linux.
 * @param {string} text
 * @param {number} index
 * @returns {{ line: string, next: number, newline: string | null } | undefined}
 */
function readLine(text, index) {
  if (index >= text.length) return undefined
  const lf = text.indexOf('\n', index)
  if (lf < 0) return { line: text.slice(index), next: text.length, newline: null }
  return { line: text.slice(index, lf), next: lf + 1, newline: '\n' }
}

/**
 * The name/value pairs of GITHUB_OUTPUT, GITHUB_ENV or GITHUB_STATE, in order (a name set
 * twice: the last wins where they are applied). Throws with the runner's words on a file it
 * would refuse: a line that is neither form, a heredoc without a name or delimiter, or
 * without its closing line, or whose last value line has no newline.
 * @param {string} text
 * @returns {[string, string][]}
 */
export function parseKeyValueFile(text) {
  /** @type {[string, string][]} */
  const pairs = []
  let at = readLine(text, 0)
  while (at !== undefined) {
    const { line } = at
    let next = at.next
    if (line !== '') {
      const equals = line.indexOf('=')
      const heredoc = line.indexOf('<<')
      if (equals >= 0 && (heredoc < 0 || equals < heredoc)) {
        // The runner checks the line, not the name, for emptiness: `=value` passes here.
        pairs.push([line.slice(0, equals), line.slice(equals + 1)])
      } else if (heredoc >= 0) {
        const name = line.slice(0, heredoc)
        const delimiter = line.slice(heredoc + 2)
        if (name === '' || delimiter === '') {
          throw new Error(
            `Invalid format '${line}'. Name must not be empty and delimiter must not be empty`,
          )
        }
        const start = next
        let end = next
        let value = readLine(text, next)
        while (value?.line !== delimiter) {
          if (value === undefined) {
            throw new Error(`Invalid value. Matching delimiter not found '${delimiter}'`)
          }
          if (value.newline === null) throw new Error('Invalid value. EOF marker missing new line.')
          end = value.next - value.newline.length
          value = readLine(text, value.next)
        }
        next = value.next
        pairs.push([name, end > start ? text.slice(start, end) : ''])
      } else {
        throw new Error(`Invalid format '${line}'`)
      }
    }
    at = readLine(text, next)
  }
  return pairs
}

/**
 * The pairs as a record, the last value of a name winning; a pair without a name is refused
 * as the runner's SetOutput or SetEnv would refuse it.
 * @param {string} text
 * @returns {Record<string, string>}
 */
export function parseCommandFile(text) {
  /** @type {Record<string, string>} */
  const values = {}
  for (const [name, value] of parseKeyValueFile(text)) {
    if (name === '') throw new Error('Invalid format: a name must not be empty')
    values[name] = value
  }
  return values
}

/**
 * GITHUB_PATH: each non-empty line, as File.ReadAllLines splits (`\r\n`, `\n` or `\r`),
 * put before PATH for the steps after this one; the latest first.
 * @param {string} text
 * @returns {string[]}
 */
export function parsePathFile(text) {
  return text.split(/\r\n|\r|\n/).filter((line) => line !== '')
}

/**
 * The runner's work after the step (ProcessFiles, also after a failure or a cancel): each
 * file in its own try, in the runner's order (path, env, summary, state, output). A file it
 * cannot process is an error annotation and a failed step; the others still count.
 * @param {Record<string, string>} files
 * @param {Partial<Record<string, string>>} broken files not read back (the step could not write them)
 * @param {ReturnType<typeof import('./workflow-commands.mjs').readWorkflowCommands>} parsed what the commands did
 */
export function processFiles(files, broken, parsed) {
  const shown = [parsed.log]
  let failed = false
  /** An error of the runner's own: in the log, and an annotation while fewer than 10. */
  const runnerError = (/** @type {string} */ message) => {
    shown.push(`Error: ${message}`)
    if (parsed.annotations.error.length < 10) parsed.annotations.error.push(message.slice(0, 4096))
  }
  /** @template T @param {string} name @param {() => T} read @param {T} fallback */
  const each = (name, read, fallback) => {
    try {
      return read()
    } catch (error) {
      failed = true
      runnerError(`Unable to process file command '${name}' successfully.`)
      runnerError(error instanceof Error ? error.message : String(error))
      return fallback
    }
  }
  /** @param {'GITHUB_OUTPUT' | 'GITHUB_ENV' | 'GITHUB_STATE'} file */
  const pairs = (file) =>
    broken[file] === undefined ? parseCommandFile(readRunnerFile(files[file] ?? '')) : {}
  const path = each('path', () => parsePathFile(readRunnerFile(files.GITHUB_PATH ?? '')), [])
  /** @type {Record<string, string>} */
  const env = {}
  for (const [name, value] of Object.entries(each('env', () => pairs('GITHUB_ENV'), {}))) {
    if (name.toUpperCase() === 'NODE_OPTIONS') {
      runnerError("Can't store NODE_OPTIONS output parameter using '$GITHUB_ENV' command.")
    } else env[name] = value
  }
  const summary = each(
    'step_summary',
    () => readSummary(files.GITHUB_STEP_SUMMARY ?? '', runnerError),
    '',
  )
  const state = { ...parsed.state, ...each('state', () => pairs('GITHUB_STATE'), {}) }
  const outputs = { ...parsed.outputs, ...each('output', () => pairs('GITHUB_OUTPUT'), {}) }
  return {
    failed,
    runnerError,
    get log() {
      return shown.join('\n')
    },
    path: [...path.reverse(), ...parsed.path],
    env: { ...parsed.env, ...env },
    summary,
    state,
    outputs,
  }
}

/**
 * GITHUB_STEP_SUMMARY: over 1 MiB, the runner drops it with an error (not a failed step).
 * @param {string} path
 * @param {(message: string) => void} runnerError
 */
function readSummary(path, runnerError) {
  const bytes = existsSync(path) ? statSync(path).size : 0
  if (bytes === 0) return ''
  if (bytes <= 1024 * 1024) return readFileSync(path, 'utf8')
  runnerError(
    `$GITHUB_STEP_SUMMARY upload aborted, supports content up to a size of 1024k, got ${Math.floor(bytes / 1024)}k.`,
  )
  return ''
}
