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
 * Contexts the emulation holds only in part: a property of theirs it does not have (say
 * `github.token`, `runner.arch`) would read as null, and an example relying on it would pass
 * with a value GitHub never gives. Reading one fails instead, loudly.
 */
const PARTIAL_CONTEXTS = new Set(['github', 'runner', 'job', 'strategy'])

/** A dictionary whose missing keys are an error: what the emulation does not model. */
class StrictDictionary extends data.Dictionary {
  /** @param {string} name @param {import('@actions/expressions').data.Dictionary} from */
  constructor(name, from) {
    super(...from.pairs())
    this.name = name
  }

  /**
   * @override
   * @param {string} key
   */
  get(key) {
    const value = super.get(key)
    if (value === undefined) {
      throw new Error(`the workflow runner does not model ${this.name}.${key}: it cannot run this`)
    }
    return value
  }
}

/**
 * Evaluates one expression, written without `${{ }}`. A context it is not given, a function
 * it does not know, or a property of a context it holds only in part fails, loudly.
 * @param {string} expression
 * @param {Contexts} contexts
 * @param {FunctionDefinition[]} [functions] beyond the built-in ones: the status functions
 * @returns {import('@actions/expressions').data.ExpressionData}
 */
export function evaluate(expression, contexts, functions = []) {
  const { tokens } = new Lexer(expression).lex()
  const parsed = new Parser(tokens, Object.keys(contexts), functions).parse()
  /** @type {import('@actions/expressions').data.Dictionary} */
  const revived = JSON.parse(JSON.stringify(contexts), data.reviver)
  const context = new data.Dictionary(
    ...revived.pairs().map(({ key, value }) => ({
      key,
      value:
        PARTIAL_CONTEXTS.has(key) && value instanceof data.Dictionary
          ? new StrictDictionary(key, value)
          : value,
    })),
  )
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
