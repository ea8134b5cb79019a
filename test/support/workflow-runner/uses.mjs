// What a step's `uses:` names: this action, a checkout, a local composite action, or something the workflow runner cannot run.
// @ts-check
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { isSequence, NoOperationTraceWriter } from '@actions/workflow-parser'
import { convertActionTemplate, parseAction } from '@actions/workflow-parser/actions/index'
import { mustMapping } from './evaluate.mjs'

/** How this action is named in examples and snippets (a placeholder), and in CI. */
const THIS_ACTION = /^(?:your-org\/gateway-token-action@[0-9a-f]{40}|\.\/?)$/
/** The one other action the examples use: a checkout, which the job's directory stands for. */
const CHECKOUT = /^actions\/checkout@[0-9a-f]{40}$/

/**
 * A local composite action (`uses: ./path`): its folder, its metadata as GitHub's parser
 * reads and checks it (a `run:` step without `shell:` is an error there, as on the runner),
 * and each step's tokens as written, for what the model leaves out (`with:`, `env:`, `shell:`).
 * @typedef {object} Composite
 * @property {string} dir
 * @property {string} name the `uses:` value
 * @property {import('@actions/workflow-parser/actions/action-template').ActionTemplate} action
 * @property {import('@actions/workflow-parser/model/workflow-template').Step[]} steps
 * @property {(import('@actions/workflow-parser/templates/tokens/mapping-token').MappingToken)[]} rawSteps
 */

/**
 * @param {string} uses
 * @param {string} workspace the job's checkout, where `./path` is read
 * @param {string} step the step's name, for the error
 * @returns {{ kind: 'this' } | { kind: 'checkout' } | ({ kind: 'composite' } & Composite)}
 */
export function resolveUses(uses, workspace, step) {
  if (THIS_ACTION.test(uses)) return { kind: 'this' }
  if (CHECKOUT.test(uses)) return { kind: 'checkout' }
  const file = uses.startsWith('./')
    ? ['action.yml', 'action.yaml'].map((f) => join(workspace, uses, f)).find(existsSync)
    : undefined
  const composite = file === undefined ? undefined : readComposite(file, uses)
  if (composite !== undefined) return { kind: 'composite', ...composite }
  throw new Error(
    `step ${step}: the workflow runner cannot run uses: ${uses} (only this action, actions/checkout and local composite actions)`,
  )
}

/**
 * A composite action's metadata, or undefined for an action of another kind (its own
 * JavaScript or container, which the workflow runner cannot run); invalid metadata fails.
 * @param {string} file
 * @param {string} uses
 * @returns {Composite | undefined}
 */
function readComposite(file, uses) {
  const parsed = parseAction(
    { name: file, content: readFileSync(file, 'utf8') },
    new NoOperationTraceWriter(),
  )
  const errors = parsed.context.errors.getErrors()
  if (errors.length > 0 || parsed.value === undefined)
    throw new Error(`${uses} is not a valid action: ${errors.map(String).join('; ')}`)
  const action = convertActionTemplate(parsed.context, parsed.value)
  if (action.runs.using !== 'composite') return undefined
  const raw = mustMapping(mustMapping(parsed.value).find('runs')).find('steps')
  const rawSteps = raw !== undefined && isSequence(raw) ? [...raw].map(mustMapping) : []
  return { dir: join(file, '..'), name: uses, action, steps: action.runs.steps, rawSteps }
}
