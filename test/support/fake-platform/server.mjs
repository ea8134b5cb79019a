// The request handler of both servers: each request recorded, throttled, faulted and answered.
// @ts-check
import { answerApi } from './api.mjs'
import { authenticate } from './auth.mjs'
import { applyFault, takeFault } from './faults.mjs'
import { readBody, sendAnswer } from './http.mjs'
import { admit } from './limits.mjs'

/** @typedef {import('./types.mjs').RecordedRequest} RecordedRequest */
/** @typedef {import('./types.mjs').Answer} Answer */
/** @typedef {import('./types.mjs').PlatformState} PlatformState */
/** @typedef {import('./platform.mjs').FakePlatform} FakePlatform */

/**
 * The handler of one server: an error thrown while answering is kept in handlerErrors
 * and answered 500.
 * @param {FakePlatform} platform
 * @param {PlatformState} state
 * @param {'auth' | 'api'} server
 */
export function requestHandler(platform, state, server) {
  return (
    /** @type {import('node:http').IncomingMessage} */ req,
    /** @type {import('node:http').ServerResponse} */ res,
  ) =>
    void receive(platform, state, server, req, res).catch((/** @type {unknown} */ error) => {
      platform.handlerErrors.push(error)
      if (!res.headersSent && !res.destroyed) {
        sendAnswer(platform, req, res, {
          status: 500,
          json: { error: `fake platform: ${String(error)}` },
        })
      }
    })
}

/**
 * @param {FakePlatform} platform
 * @param {PlatformState} state
 * @param {'auth' | 'api'} server
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 */
async function receive(platform, state, server, req, res) {
  const body = await readBody(req)
  /** @type {RecordedRequest} */
  const request = {
    server,
    method: req.method ?? '',
    path: req.url ?? '',
    headers: req.headers,
    body,
    at: Date.now(),
  }
  platform.requests.push(request)
  // The throttle decides on arrival: a server turns a request away before working on it.
  const gate = request.server === 'api' ? admit(platform, state) : undefined
  try {
    // A gateway's 429 comes before any work; the backend's, and an outage's 503, after it.
    if (gate?.refusal !== undefined && gate.atOnce)
      return void sendAnswer(platform, req, res, gate.refusal)
    if (platform.latencyMs > 0) {
      await new Promise((resolve) => setTimeout(resolve, platform.latencyMs))
    }
    if (gate?.refusal !== undefined) return void sendAnswer(platform, req, res, gate.refusal)
    const fault = takeFault(state.faults, platform.apiPrefix, request)
    if (fault?.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs))
    const carriedOut =
      fault === undefined || fault.commit ? handle(platform, state, request) : undefined
    if (fault?.commitAfterMs !== undefined) {
      setTimeout(() => void handle(platform, state, request), fault.commitAfterMs).unref()
    }
    if (fault?.drop === 'reset') return void req.socket.resetAndDestroy()
    if (fault?.drop === 'hang') return // The connection stays open, unanswered, until close().
    /** @type {Answer} */
    const answer =
      fault?.status !== undefined
        ? { status: fault.status, json: { error: `Injected ${fault.status}` } }
        : (carriedOut ?? handle(platform, state, request))
    const sent = fault === undefined ? answer : applyFault(answer, fault, request)
    sendAnswer(platform, req, res, sent)
  } finally {
    gate?.leave()
  }
}

/**
 * @param {FakePlatform} platform
 * @param {PlatformState} state
 * @param {RecordedRequest} request
 * @returns {Answer}
 */
function handle(platform, state, request) {
  if (request.server === 'auth') return authenticate(platform, state.accessTokens, request)
  return answerApi(platform, state, request)
}
