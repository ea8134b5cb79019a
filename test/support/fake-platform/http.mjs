// The wire: request bodies read, answers sent (raw on the socket when Node refuses), servers.
// @ts-check
import { STATUS_CODES, validateHeaderName, validateHeaderValue } from 'node:http'

/** @typedef {import('./types.mjs').Answer} Answer */
/** @typedef {import('./types.mjs').AnswerHeaders} AnswerHeaders */

const TEXT = 'text/plain; charset=utf-8'

/** @param {import('node:http').IncomingMessage} req */
export async function readBody(req) {
  const chunks = []
  for await (const chunk of req) chunks.push(chunk)
  return Buffer.concat(chunks).toString('utf8')
}

/**
 * Sends an answer through Node, or raw on the socket when Node refuses its status,
 * reason phrase or a header (a control character, a character above U+00FF).
 * @param {import('./platform.mjs').FakePlatform} platform its clock and sendDate
 * @param {import('node:http').IncomingMessage} req
 * @param {import('node:http').ServerResponse} res
 * @param {Answer} answer
 */
export function sendAnswer(platform, req, res, answer) {
  const body = answer.body ?? (answer.json === undefined ? '' : (JSON.stringify(answer.json) ?? ''))
  const type = answer.body === undefined ? 'application/json' : (answer.type ?? TEXT)
  /** @type {AnswerHeaders} */
  const headers = {
    'Content-Type': type,
    'Content-Length': String(Buffer.byteLength(body)),
    // The platform's own clock, not Node's: see clockOffsetMs.
    ...(platform.sendDate ? { Date: new Date(answer.dated ?? platform.now()).toUTCString() } : {}),
    ...answer.headers,
  }
  const statusText = answer.statusText ?? STATUS_CODES[answer.status] ?? ''
  if (!sendable(answer.status, statusText, headers)) {
    writeRaw(req.socket, answer.status, statusText, headers, body)
    return
  }
  res.sendDate = false
  res.writeHead(answer.status, statusText, headers)
  res.end(body)
}

/**
 * Whether Node will send this status line and these headers as they are.
 * @param {number} status
 * @param {string} statusText
 * @param {AnswerHeaders} headers
 */
function sendable(status, statusText, headers) {
  if (!Number.isInteger(status) || status < 100 || status > 999) return false
  if (/[^\t\x20-\x7e\x80-\xff]/.test(statusText)) return false
  try {
    for (const [name, value] of Object.entries(headers)) {
      validateHeaderName(name)
      for (const one of [value].flat()) validateHeaderValue(name, one)
    }
    return true
  } catch {
    return false
  }
}

/**
 * Writes an HTTP/1.1 answer on the socket by hand, UTF-8 encoded, and closes it.
 * @param {import('node:net').Socket} socket
 * @param {number} status
 * @param {string} statusText
 * @param {AnswerHeaders} headers
 * @param {string} body
 */
function writeRaw(socket, status, statusText, headers, body) {
  const lines = [`HTTP/1.1 ${status} ${statusText}`]
  for (const [name, value] of Object.entries(headers)) {
    for (const one of [value].flat()) lines.push(`${name}: ${one}`)
  }
  lines.push('Connection: close', '', '')
  socket.end(Buffer.from(lines.join('\r\n') + body, 'utf8'))
}

/**
 * @param {import('node:http').Server} server
 * @param {number} port
 * @returns {Promise<number>}
 */
export function listen(server, port) {
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => {
      const address = server.address()
      resolve(typeof address === 'object' && address !== null ? address.port : port)
    })
  })
}

/** @param {import('node:http').Server} server */
export function close(server) {
  return new Promise((resolve) => server.close(() => resolve(undefined)))
}
