// @ts-check
// The files `npm run lint:actions` checks in a root, and what the two linters find in them.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { actionlint } from './actionlint.mjs'
import { languageService, validationConfig } from './language-service.mjs'
import { markdownPosition, snippetKind, wrapSnippet, yamlSnippets } from './snippets.mjs'

/** @typedef {import('@actions/languageservice').ValidationConfig} ValidationConfig */

/**
 * @typedef {object} Problem
 * @property {string} file relative to the root, with `/`
 * @property {number} line 1-based
 * @property {number} column 1-based
 * @property {string} message
 */

/**
 * @typedef {object} Report
 * @property {Problem[]} problems sorted by file, line and column
 * @property {string[]} checked the files and the snippets (`README.md:42`) linted, in order
 */

/**
 * What a snippet's workflow runs on. A snippet leaves that to the workflow it is pasted into:
 * what one of these events gives (`github.event.pull_request` on a pull request) is fine.
 */
const TRIGGERS = '[push, pull_request, workflow_dispatch]'

/**
 * The files of a folder of the root whose names match, as paths from the root (`/`
 * separated, without `./`); none when the folder is not there.
 * @param {string} root
 * @param {string} folder
 * @param {RegExp} names
 */
function filesOf(root, folder, names) {
  if (!existsSync(join(root, folder))) return []
  return readdirSync(join(root, folder))
    .filter((name) => names.test(name))
    .sort()
    .map((name) => (folder === '.' ? name : `${folder}/${name}`))
}

/**
 * The action metadata of a root: its `action.yml`, then the local actions its workflows use,
 * in the folders of `.github/actions/` and of `examples/` (a composite action an example
 * uses, which users copy).
 * @param {string} root
 */
function actionFiles(root) {
  /** @param {string} local */
  const folders = (local) =>
    existsSync(join(root, local))
      ? readdirSync(join(root, local), { withFileTypes: true })
          .filter((entry) => entry.isDirectory())
          .map((entry) => `${local}/${entry.name}`)
          .sort()
      : []
  return [
    ...filesOf(root, '.', /^action\.ya?ml$/),
    ...[...folders('.github/actions'), ...folders('examples')].flatMap((folder) =>
      filesOf(root, folder, /^action\.ya?ml$/),
    ),
  ]
}

/**
 * Both linters over a snippet of Markdown that is a workflow or a list of steps, made into a
 * workflow; undefined for any other snippet (a lone `uses:` line).
 * @param {import('./snippets.mjs').Snippet} snippet
 * @param {string} uri
 * @param {ValidationConfig} config
 * @returns {Promise<Problem[] | undefined>}
 */
async function lintSnippet(snippet, uri, config) {
  /** @type {ReturnType<typeof snippetKind>} */
  let kind
  try {
    kind = snippetKind(snippet.text)
  } catch (error) {
    const message = `Not YAML: ${error instanceof Error ? error.message.split('\n')[0] : ''}`
    return [{ file: snippet.file, line: snippet.line, column: 1, message }]
  }
  if (kind === undefined) return undefined
  const wrapped = wrapSnippet(snippet.text, kind, TRIGGERS)
  const found = [
    ...(await languageService(uri, wrapped.text, config)),
    // actionlint counts from 1.
    ...(await actionlint(snippet.file, wrapped.text)).map((d) => ({
      ...d,
      line: d.line - 1,
      character: d.column - 1,
    })),
  ]
  return found.map((d) => ({
    file: snippet.file,
    ...markdownPosition(snippet, wrapped, d.line, d.character),
    message: d.message,
  }))
}

/**
 * Runs GitHub's language service and actionlint over a root: the action metadata, the
 * workflows of `.github/workflows/` and `examples/` (both linters), and the snippets of
 * `README.md` and `docs/*.md` that are workflows or lists of steps (both too). The language
 * service reads the metadata of this action from the root's `action.yml`: a root without
 * one is a problem.
 * @param {string} root
 * @returns {Promise<Report>}
 */
export async function lintRepository(root) {
  const config = validationConfig(root)
  /** @type {Problem[]} */
  const problems = []
  /** @type {string[]} */
  const checked = []
  /** @param {string} file */
  const uri = (file) => pathToFileURL(join(root, file)).href
  /** @param {string} file */
  const read = (file) => readFileSync(join(root, file), 'utf8')

  const actions = actionFiles(root)
  if (!actions.some((file) => !file.includes('/'))) {
    const message = 'Not found: the workflows that use this action are checked against it'
    problems.push({ file: 'action.yml', line: 1, column: 1, message })
  }
  for (const file of actions) {
    for (const d of await languageService(uri(file), read(file), config)) {
      problems.push({ file, line: d.line + 1, column: d.character + 1, message: d.message })
    }
    checked.push(file)
  }

  for (const file of ['.github/workflows', 'examples'].flatMap((f) =>
    filesOf(root, f, /\.ya?ml$/),
  )) {
    const text = read(file)
    for (const d of await languageService(uri(file), text, config)) {
      problems.push({ file, line: d.line + 1, column: d.character + 1, message: d.message })
    }
    for (const d of await actionlint(file, text)) problems.push({ file, ...d })
    checked.push(file)
  }

  for (const file of [...filesOf(root, '.', /^README\.md$/), ...filesOf(root, 'docs', /\.md$/)]) {
    for (const snippet of yamlSnippets(file, read(file))) {
      const found = await lintSnippet(snippet, `${uri(file)}#L${snippet.line}`, config)
      if (found === undefined) continue
      problems.push(...found)
      checked.push(`${file}:${snippet.line}`)
    }
  }
  problems.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column)
  return { problems, checked }
}
