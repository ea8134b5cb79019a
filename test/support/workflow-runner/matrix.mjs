// A job's `strategy.matrix` expanded into its combinations, as GitHub expands one.
// @ts-check
import { isDeepStrictEqual } from 'node:util'

/** @typedef {Record<string, unknown>} Combination */

/**
 * The combinations of a matrix (GitHub's docs, "Using a matrix for your jobs"): every
 * vector's values crossed, in the order the keys are written; then each `exclude` entry
 * removes the combinations it matches (its keys a subset, values equal); then each
 * `include` entry is added to every combination none of whose original values it would
 * change (values other includes added may change), or, when it fits none, is a combination
 * of its own, which no later include extends. A vector with no values, or a matrix that comes to no combination, is an
 * error, as on GitHub ("Matrix vector '...' does not contain any values").
 * @param {unknown} matrix the evaluated `strategy.matrix`
 * @returns {Combination[]}
 */
export function expandMatrix(matrix) {
  if (typeof matrix !== 'object' || matrix === null || Array.isArray(matrix)) {
    throw new Error(`a matrix must be a mapping, not ${JSON.stringify(matrix)}`)
  }
  const { include = [], exclude = [], ...vectors } = /** @type {Record<string, unknown>} */ (matrix)
  /** @type {Combination[]} */
  let combinations = Object.keys(vectors).length === 0 ? [] : [{}]
  for (const [key, values] of Object.entries(vectors)) {
    if (!Array.isArray(values) || values.length === 0) {
      throw new Error(`Matrix vector '${key}' does not contain any values`)
    }
    combinations = combinations.flatMap((base) =>
      values.map((value) => ({ ...base, [key]: value })),
    )
  }
  const matches = (/** @type {Combination} */ combination, /** @type {Combination} */ entry) =>
    Object.entries(entry).every(([key, value]) => isDeepStrictEqual(combination[key], value))
  combinations = combinations.filter((combination) =>
    list(exclude, 'exclude').every((entry) => !matches(combination, entry)),
  )
  const original = combinations.map((combination) => ({ ...combination }))
  for (const entry of list(include, 'include')) {
    let added = false
    combinations.forEach((combination, index) => {
      // An include that made a combination of its own takes no other (GitHub's docs: banana).
      const base = original[index]
      if (base === undefined) return
      const keeps = Object.entries(entry).every(
        ([key, value]) => !(key in base) || isDeepStrictEqual(base[key], value),
      )
      if (!keeps) return
      Object.assign(combination, entry)
      added = true
    })
    if (!added) combinations.push({ ...entry })
  }
  if (combinations.length === 0) throw new Error('the matrix comes to no combination')
  return combinations
}

/**
 * @param {unknown} value
 * @param {string} name
 * @returns {Combination[]}
 */
function list(value, name) {
  if (!Array.isArray(value) || value.some((entry) => typeof entry !== 'object' || entry === null)) {
    throw new Error(`a matrix's ${name} must be a list of mappings`)
  }
  return value
}
