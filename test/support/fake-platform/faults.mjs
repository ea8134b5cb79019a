// Hostile answers on request: the faults that match a request, and what they make of its answer.
// @ts-check
import { rawPathname } from './messages.mjs'

/** @typedef {import('./types.mjs').RecordedRequest} RecordedRequest */
/** @typedef {import('./types.mjs').Answer} Answer */
/** @typedef {import('./types.mjs').Fault} Fault */
/** @typedef {import('./types.mjs').Echo} Echo */

/**
 * A JSON text of `depth` nested objects, `{"a":{"a":{}}}` for 3, built without
 * recursion so that any depth can be sent.
 * @param {number} depth at least 1
 */
export function nestedJson(depth) {
  if (!Number.isInteger(depth) || depth < 1) throw new RangeError(`nest must be 1 or more`)
  return `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`
}

/**
 * The first fault that matches the request, used up by one.
 * @param {(Fault & { times: number })[]} faults in the order they were added
 * @param {string} apiPrefix
 * @param {RecordedRequest} request
 */
export function takeFault(faults, apiPrefix, request) {
  const pathname = rawPathname(request.path)
  const path = request.server === 'api' ? pathname.slice(apiPrefix.length) : pathname
  const fault = faults.find(
    (f) =>
      f.times > 0 &&
      (f.server === undefined || f.server === request.server) &&
      (f.method === undefined || f.method === request.method) &&
      (f.path === undefined || (typeof f.path === 'string' ? f.path === path : f.path.test(path))),
  )
  if (fault !== undefined) fault.times--
  return fault
}

/**
 * The answer a fault makes of the answer the platform would give (or the injected one).
 * @param {Answer} answer
 * @param {Fault} fault
 * @param {RecordedRequest} request
 * @returns {Answer}
 */
export function applyFault(answer, fault, request) {
  /** @type {Answer} */
  let changed = answer
  if (fault.echo !== undefined) changed = { status: answer.status, ...echo(fault.echo, request) }
  else if (fault.nest !== undefined) {
    changed = { status: answer.status, body: nestedJson(fault.nest), type: 'application/json' }
  } else if (fault.json !== undefined) changed = { status: answer.status, json: fault.json }
  else if (fault.body !== undefined) changed = { status: answer.status, body: fault.body }
  else if (fault.status === undefined) changed = { ...answer }
  if (answer.headers !== undefined || fault.headers !== undefined) {
    changed.headers = { ...answer.headers, ...fault.headers }
  }
  if (fault.statusText !== undefined) changed.statusText = fault.statusText
  return changed
}

/**
 * @param {Echo} how
 * @param {RecordedRequest} request
 * @returns {Omit<Answer, 'status'>}
 */
function echo(how, request) {
  if (typeof how === 'function') return { body: how(request) }
  const text =
    how === 'body' ? request.body : how === 'path' ? request.path : JSON.stringify(request.headers)
  return { json: { error: `Cannot process this request: ${text}` } }
}
