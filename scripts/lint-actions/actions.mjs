// @ts-check
// The actions and reusable workflows a workflow names that the lint can read: this repository's.
import { existsSync, readFileSync } from 'node:fs'
import { join, normalize, sep } from 'node:path'
import { isMap, isScalar, isSeq, parse, parseDocument, visit } from 'yaml'

/**
 * This action as workflows outside this repository name it: the README's and the examples'
 * placeholder, `your-org/gateway-token-action@<sha>`. Any ref is this repository's files.
 */
export const THIS_ACTION = { owner: 'your-org', name: 'gateway-token-action' }

/**
 * @typedef {object} Metadata what a workflow step sees of an action
 * @property {string} name
 * @property {string} description
 * @property {Record<string, { description: string, required?: boolean, default?: string }>} [inputs]
 * @property {Record<string, { description: string }>} [outputs]
 */

/**
 * The path, inside the root, of a file a `uses:` names: a local one (`./path`, or `$/path`,
 * the language service's name for the same), or one of this action's repository
 * (`your-org/gateway-token-action[/path]@ref`). Undefined for any other repository, and for
 * a path that leaves the root.
 * @param {string} uses
 */
export function pathInRepository(uses) {
  /** @type {string | undefined} */
  let path
  if (uses.startsWith('./') || uses.startsWith('$/')) path = uses.slice(2)
  else {
    const [owner, name, ...rest] = (uses.split('@')[0] ?? '').split('/')
    if (owner === THIS_ACTION.owner && name === THIS_ACTION.name) path = rest.join('/')
  }
  if (path === undefined) return undefined
  const inside = normalize(path === '' ? '.' : path)
  return inside === '..' || inside.startsWith(`..${sep}`) ? undefined : inside
}

/**
 * Reads the actions of one root, each once: the metadata of `action.yml` (or `action.yaml`)
 * in a folder of the repository, undefined when there is none.
 * @param {string} root
 */
export function actionReader(root) {
  /** @type {Map<string, Metadata | undefined>} */
  const read = new Map()
  /** @param {string} folder inside the root */
  return (folder) => {
    if (!read.has(folder)) {
      const file = ['action.yml', 'action.yaml']
        .map((name) => join(root, folder, name))
        .find((path) => existsSync(path))
      /** @type {unknown} */
      const metadata = file === undefined ? undefined : parse(readFileSync(file, 'utf8'))
      read.set(folder, isMetadata(metadata) ? metadata : undefined)
    }
    return read.get(folder)
  }
}

/** @param {unknown} value @returns {value is Metadata} */
function isMetadata(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * A workflow's text with each step's `uses: ./path` written `uses: $/path` (`./` as `$/.`),
 * and what each new value stood for. The runner reads both from the checked-out repository;
 * the language service reads only the second, through its file provider (it skips `./`, which
 * a remote editor cannot read). Only the `uses:` values change: every line keeps its number.
 * @param {string} text
 */
export function localAsSelf(text) {
  /** @type {{ start: number, end: number, value: string, was: string }[]} */
  const edits = []
  visit(parseDocument(text), {
    Pair(_, pair, path) {
      // A step: a mapping that is an item of a sequence (a job's `uses:` is not).
      const step = path.at(-1)
      const list = path.at(-2)
      if (!isMap(step) || !isSeq(list) || !isScalar(pair.key) || pair.key.value !== 'uses') return
      const uses = pair.value
      if (!isScalar(uses) || typeof uses.value !== 'string' || !uses.value.startsWith('./')) return
      const [start, end] = uses.range ?? [0, 0]
      if (text.slice(start, end) !== uses.value) return // quoted: left as it is
      const local = uses.value.slice(2)
      edits.push({ start, end, value: `$/${local === '' ? '.' : local}`, was: uses.value })
    },
  })
  let result = text
  for (const edit of [...edits].reverse()) {
    result = result.slice(0, edit.start) + edit.value + result.slice(edit.end)
  }
  return { text: result, was: new Map(edits.map((edit) => [edit.value, edit.was])) }
}
