// Evaluating a workflow's tokens: if: conditions with the status functions, with:, env:, outputs:.
// @ts-check
import { data } from '@actions/expressions'
import {
  isBasicExpression,
  isBoolean,
  isLiteral,
  isMapping,
  isNumber,
  isSequence,
  isString,
} from '@actions/workflow-parser'
import { truthy } from '@actions/expressions/result'
import { evaluate } from '../expressions.mjs'

/**
 * The status functions of `if:` (the runner defines them, not the expression library):
 * success(), failure() and cancelled() by the job's status so far; always().
 * @param {() => string} status
 * @returns {import('../expressions.mjs').FunctionDefinition[]}
 */
export function jobStatusFunctions(status) {
  /** @param {string} name @param {() => boolean} value */
  const fn = (name, value) => ({
    name,
    minArgs: 0,
    maxArgs: 0,
    call: () => evaluate(value() ? 'true' : 'false', {}),
  })
  return [
    fn('success', () => status() === 'success'),
    fn('failure', () => status() === 'failure'),
    fn('always', () => true),
    fn('cancelled', () => status() === 'cancelled'),
  ]
}

/**
 * @param {string} expression
 * @param {Record<string, unknown>} contexts
 * @param {import('../expressions.mjs').FunctionDefinition[]} functions
 */
export function evaluateCondition(expression, contexts, functions) {
  return truthy(evaluate(expression, contexts, functions))
}

/**
 * A scalar token's value as the runner passes it to a step: a string.
 * @param {unknown} token
 * @param {Record<string, unknown>} contexts
 */
export function evaluateToken(token, contexts) {
  const t =
    /** @type {import('@actions/workflow-parser/templates/tokens/template-token').TemplateToken} */ (
      token
    )
  if (isString(t)) return t.value
  if (isBasicExpression(t)) return evaluate(t.expression, contexts).coerceString()
  return String(t)
}

/**
 * A scalar token's value with its type, as a reusable workflow's input receives it: a
 * string, number or boolean as written, or what an expression gives.
 * @param {unknown} token
 * @param {Record<string, unknown>} contexts
 * @returns {unknown}
 */
export function evaluateValue(token, contexts) {
  const t =
    /** @type {import('@actions/workflow-parser/templates/tokens/template-token').TemplateToken} */ (
      token
    )
  if (isString(t) || isNumber(t) || isBoolean(t)) return t.value
  if (isBasicExpression(t)) {
    return JSON.parse(JSON.stringify(evaluate(t.expression, contexts), data.replacer))
  }
  throw new Error(`expected a scalar in the workflow, not ${String(t)}`)
}

/**
 * A mapping of `with:`, `env:` or `outputs:`, each value evaluated.
 * @param {unknown} token
 * @param {Record<string, unknown>} contexts
 * @returns {Record<string, string>}
 */
export function evaluateMapping(token, contexts) {
  if (token === undefined) return {}
  /** @type {Record<string, string>} */
  const values = {}
  for (const { key, value } of mustMapping(token)) {
    values[String(key)] = evaluateToken(value, contexts)
  }
  return values
}

/**
 * @param {unknown} token
 * @returns {import('@actions/workflow-parser/templates/tokens/mapping-token').MappingToken}
 */
export function mustMapping(token) {
  const t =
    /** @type {import('@actions/workflow-parser/templates/tokens/template-token').TemplateToken} */ (
      token
    )
  if (t === undefined || !isMapping(t)) throw new Error('expected a mapping in the workflow')
  return t
}

/**
 * A whole token (a mapping, a sequence, expressions anywhere in it) as the JSON value it
 * evaluates to: `strategy`, `environment`, a matrix from `fromJSON` of a job's output.
 * @param {unknown} token
 * @param {Record<string, unknown>} contexts
 * @returns {unknown}
 */
export function evaluateTree(token, contexts) {
  if (token === undefined) return undefined
  const t =
    /** @type {import('@actions/workflow-parser/templates/tokens/template-token').TemplateToken} */ (
      token
    )
  if (isMapping(t)) {
    return Object.fromEntries(
      [...t].map(({ key, value }) => [String(key), evaluateTree(value, contexts)]),
    )
  }
  if (isSequence(t)) return [...t].map((item) => evaluateTree(item, contexts))
  if (isBasicExpression(t)) {
    return JSON.parse(JSON.stringify(evaluate(t.expression, contexts), data.replacer))
  }
  if (isString(t) || isNumber(t) || isBoolean(t)) return t.value
  if (isLiteral(t)) return null
  throw new Error(`the workflow runner cannot evaluate ${String(t)}`)
}
