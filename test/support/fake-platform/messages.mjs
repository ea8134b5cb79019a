// Small helpers on requests and answers: error answers, the raw path, JSON bodies.
// @ts-check

/** @typedef {import('./types.mjs').RecordedRequest} RecordedRequest */
/** @typedef {import('./types.mjs').Answer} Answer */

/**
 * @param {number} status
 * @param {string} message
 * @returns {Answer}
 */
export function error(status, message) {
  return { status, json: { error: message } }
}

/**
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
export function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/**
 * The path of a request target as sent, without its query.
 * @param {string} target
 */
export function rawPathname(target) {
  const query = target.indexOf('?')
  return query < 0 ? target : target.slice(0, query)
}

/** @param {RecordedRequest} request */
export function isJson(request) {
  return /^application\/json\b/i.test(request.headers['content-type'] ?? '')
}

/**
 * @param {string} text
 * @returns {Record<string, unknown> | undefined}
 */
export function parseJson(text) {
  try {
    const value = /** @type {unknown} */ (JSON.parse(text))
    return isObject(value) ? value : undefined
  } catch {
    return undefined
  }
}
