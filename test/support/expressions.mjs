// @ts-check
/**
 * GitHub Actions expressions (`${{ ... }}`), evaluated with GitHub's own library,
 * @actions/expressions: the runner emulation evaluates action.yml's defaults with it
 * (`${{ job.status }}`), and the workflow runner every `with:`, `env:` and `if:`.
 */
import { data, Evaluator, Lexer, Parser } from '@actions/expressions'

/**
 * @typedef {Record<string, unknown>} Contexts plain JSON per context name (github, job, ...)
 * @typedef {import('@actions/expressions/funcs/info').FunctionDefinition} FunctionDefinition
 */

/**
 * Evaluates one expression, written without `${{ }}`.
 * @param {string} expression
 * @param {Contexts} contexts
 * @param {FunctionDefinition[]} [functions] beyond the built-in ones: the status functions
 * @returns {import('@actions/expressions').data.ExpressionData}
 */
export function evaluate(expression, contexts, functions = []) {
  const { tokens } = new Lexer(expression).lex()
  const parsed = new Parser(tokens, Object.keys(contexts), functions).parse()
  /** @type {import('@actions/expressions').data.Dictionary} */
  const context = JSON.parse(JSON.stringify(contexts), data.reviver)
  const byName = new Map(functions.map((f) => [f.name.toLowerCase(), f]))
  return new Evaluator(parsed, context, byName).evaluate()
}

/**
 * A text with each `${{ ... }}` replaced by its value as a string, as the runner puts it.
 * @param {string} text
 * @param {Contexts} contexts
 * @param {FunctionDefinition[]} [functions]
 */
export function evaluateTemplate(text, contexts, functions = []) {
  return text.replace(/\$\{\{([\s\S]*?)\}\}/g, (_, expression) =>
    evaluate(String(expression).trim(), contexts, functions).coerceString(),
  )
}
