// Inputs the action does not declare, refused before anything is sent, naming the declared input each most resembles.
import { InputError } from '../shared/errors.js'

/**
 * The variable the runner sets for an input: `INPUT_`, then the name in upper case with
 * spaces as `_` (actions/runner). Given here without the `INPUT_` prefix.
 */
export function inputVariable(name: string): string {
  return name.replace(/ /g, '_').toUpperCase()
}

/**
 * Fails when the step was given an input that is not declared. The runner only warns
 * about one, and passes it on: a misspelt `olderThan` would leave a cleanup without its
 * age filter, and it would revoke every token of the name. `given` holds the names of
 * the INPUT_* variables, without the prefix, as the runner spells them (upper case); they
 * are named in lower case, as they were most likely written in `with:`.
 */
export function refuseUnknownInputs(given: readonly string[], declared: readonly string[]): void {
  const known = new Set(declared.map(inputVariable))
  const [first, ...others] = given.filter((variable) => !known.has(variable.toUpperCase())).sort()
  if (first === undefined) return
  const meant = closest(first, declared)
  const guess =
    meant === undefined ? ` (the inputs are ${declared.join(', ')}).` : `: did you mean '${meant}'?`
  const also = others.map((variable) => {
    const other = closest(variable, declared)
    return `'${variable.toLowerCase()}'${other === undefined ? '' : ` (did you mean '${other}'?)`}`
  })
  const alsoUnknown = also.length > 0 ? ` Also unknown: ${also.join(', ')}.` : ''
  throw new InputError(
    first.toLowerCase(),
    `is not an input of this action${guess}${alsoUnknown} Nothing was sent: the runner passes an unknown input on with only a warning, and a misspelt one could drop a filter and widen what the action revokes. If the step's with: does not set it, it may come from an env: block of the step, the job or the workflow: a variable named INPUT_${first.toUpperCase()} there reaches the action as an input; rename it.`,
  )
}

/**
 * The declared input `variable` most resembles: the same letters and digits in any case
 * (`older_than`, `revoke-on-exit`), else the nearest by edit distance, if near enough
 * that a slip of the keyboard explains it.
 */
export function closest(variable: string, declared: readonly string[]): string | undefined {
  // Letters and digits only, upper case: what is left when separators and case are ignored.
  const squash = (name: string) => name.toUpperCase().replace(/[^A-Z0-9]/g, '')
  const wanted = squash(variable)
  const [best] = declared
    .map((name) => ({ name, distance: editDistance(wanted, squash(name)) }))
    .sort((a, b) => a.distance - b.distance)
  const near = Math.max(1, Math.floor(wanted.length / 4))
  return wanted !== '' && best !== undefined && best.distance <= near ? best.name : undefined
}

/**
 * Edits (insert, delete, replace, swap two neighbours) from `a` to `b`: the restricted
 * Damerau-Levenshtein distance, so that `olderThna` is one edit from `olderThan`.
 */
export function editDistance(a: string, b: string): number {
  // rows[i][j]: the distance between the first i characters of a and the first j of b.
  // Outside the table (a swap before the second character) is Infinity: no such edit.
  const rows = [Array.from({ length: b.length + 1 }, (_, j) => j)]
  const at = (i: number, j: number) => rows[i]?.[j] ?? Infinity
  for (let i = 1; i <= a.length; i++) {
    const row = [i]
    rows.push(row)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      const swap = a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1] ? at(i - 2, j - 2) + 1 : Infinity
      row.push(Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost, swap))
    }
  }
  return at(a.length, b.length)
}
