import { afterEach, describe, expect, it } from '@jest/globals'
import http from 'node:http'
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import { CUT_OFF, send, TransportError } from '../../../../src/platform/http.js'

let server: http.Server | undefined
const agent = new http.Agent({ keepAlive: true })

/** A local server whose handler decides how (or whether) to answer. */
async function serve(handler: http.RequestListener): Promise<string> {
  server = http.createServer(handler)
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

afterEach(async () => {
  agent.destroy()
  const running = server
  server = undefined
  if (running === undefined) return
  running.closeAllConnections()
  await new Promise((resolve) => running.close(resolve))
})

async function failure(promise: Promise<unknown>): Promise<TransportError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  if (error instanceof TransportError) return error
  throw new Error(`expected a TransportError, got ${String(error)}`)
}

describe('send', () => {
  it('sends the body with its length and reads the whole answer', async () => {
    let received = ''
    const url = await serve((req, res) => {
      req.on('data', (chunk: Buffer) => (received += chunk.toString()))
      req.on('end', () => {
        res.writeHead(201, { 'Content-Type': 'application/json' })
        res.end(JSON.stringify({ length: req.headers['content-length'] }))
      })
    })
    const response = await send(
      {
        method: 'POST',
        url: `${url}/x`,
        headers: { 'Content-Type': 'application/json' },
        body: '{"name":"é"}',
      },
      agent,
      5_000,
    )
    expect(received).toBe('{"name":"é"}')
    expect(response).toMatchObject({ status: 201, statusText: 'Created', body: '{"length":"13"}' })
  })

  it('cuts off a server that accepts the connection and never answers', async () => {
    const url = await serve(() => {
      // Never answers.
    })
    const error = await failure(send({ method: 'GET', url, headers: {} }, agent, 200))
    expect(error.message).toBe('no answer within 0.2 s (timeout)')
    expect(error.code).toBe('ETIMEDOUT')
    expect(error.requestSent).toBe(true)
  })

  it('cuts off a request in flight when its signal aborts: the step was cancelled', async () => {
    let arrived: () => void = () => undefined
    const received = new Promise<void>((resolve) => (arrived = resolve))
    const url = await serve(() => {
      arrived()
    })
    const cancel = new AbortController()
    const sending = failure(send({ method: 'GET', url, headers: {} }, agent, 30_000, cancel.signal))
    await received
    cancel.abort()
    const error = await sending
    expect(error.message).toBe('cut off: the step was cancelled')
    expect(error.code).toBe(CUT_OFF)
    expect(error.requestSent).toBe(true)
  })

  it('sends nothing with a signal aborted already; an answer before the abort is kept', async () => {
    let requests = 0
    const url = await serve((_req, res) => {
      requests++
      res.end('ok')
    })
    const aborted = AbortSignal.abort()
    const error = await failure(send({ method: 'GET', url, headers: {} }, agent, 5_000, aborted))
    expect(error.code).toBe(CUT_OFF)
    expect(error.requestSent).toBe(false)
    const cancel = new AbortController()
    const answer = await send({ method: 'GET', url, headers: {} }, agent, 5_000, cancel.signal)
    cancel.abort()
    expect(answer.body).toBe('ok')
    expect(requests).toBe(1)
  })

  it('bounds the whole answer, not each chunk: a body sent a byte at a time is cut off', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200)
      const drip = setInterval(() => res.write('x'), 50)
      res.on('close', () => {
        clearInterval(drip)
      })
    })
    const error = await failure(send({ method: 'GET', url, headers: {} }, agent, 300))
    expect(error.code).toBe('ETIMEDOUT')
  })

  it('reports a refused connection as not sent', async () => {
    const url = await serve(() => undefined)
    const port = (server?.address() as AddressInfo).port
    await new Promise((resolve) => server?.close(resolve))
    const error = await failure(
      send({ method: 'POST', url, headers: {}, body: '{}' }, agent, 5_000),
    )
    expect(error.message).toBe('connection refused (ECONNREFUSED)')
    expect(error.requestSent).toBe(false)
    expect(url).toContain(String(port))
  })

  it('reports a reset after the request was read as sent', async () => {
    const url = await serve((req) => {
      req.resume()
      req.on('end', () => req.socket.resetAndDestroy())
    })
    const error = await failure(
      send({ method: 'POST', url, headers: {}, body: '{}' }, agent, 5_000),
    )
    expect(error.code).toBe('ECONNRESET')
    expect(error.message).toBe('connection reset (ECONNRESET)')
    expect(error.requestSent).toBe(true)
  })

  it('reports a reset in the middle of the body', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Length': '100' })
      res.write('[{"id":')
      setTimeout(() => res.socket?.resetAndDestroy(), 20)
    })
    const error = await failure(send({ method: 'GET', url, headers: {} }, agent, 5_000))
    expect(error.code).toBe('ECONNRESET')
  })
})

describe('send: failures of the way there (issue 18, case 7)', () => {
  /** An agent whose connection fails as the proxy tunnel, or TLS, would fail it. */
  function failingAgent(error: Error): http.Agent {
    const agent = new http.Agent()
    agent.createConnection = (_options, callback) => {
      process.nextTick(() => callback?.(error, undefined as never))
      return undefined
    }
    return agent
  }
  const fail = (message: string, code: string) =>
    failure(
      send(
        { method: 'GET', url: 'http://platform.test/api/tokens', headers: {} },
        failingAgent(Object.assign(new Error(message), { code })),
        5_000,
      ),
    )

  it('names a 407 from the proxy as its credentials, not a reset to retry', async () => {
    const error = await fail(
      'tunneling socket could not be established, statusCode=407',
      'ECONNRESET',
    )
    expect(error.code).toBe('EPROXYAUTH')
    expect(error.message).toBe('the proxy answered 407 Proxy Authentication Required (EPROXY)')
    expect(error.requestSent).toBe(false)
  })

  it('names another refusal of the proxy as such', async () => {
    const error = await fail(
      'tunneling socket could not be established, statusCode=403',
      'ECONNRESET',
    )
    expect(error.code).toBe('EPROXY')
    expect(error.message).toBe('the proxy answered 403 to the tunnel (EPROXY)')
  })

  it('says what is wrong with a certificate in its own words, not in Node\u2019s', async () => {
    const error = await fail(
      'unable to get local issuer certificate. Try --use-system-ca.',
      'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
    )
    expect(error.message).toBe(
      'its certificate was issued by a CA that is not trusted (UNABLE_TO_GET_ISSUER_CERT_LOCALLY)',
    )
    const other = await fail('certificate signature failure', 'CERT_SIGNATURE_FAILURE')
    expect(other.message).toBe('certificate not trusted (CERT_SIGNATURE_FAILURE)')
  })

  it('says that an https:// URL reached a port that speaks plain HTTP, in words, on one line', async () => {
    let requests = 0
    const url = await serve((_req, res) => {
      requests++
      res.end('ok')
    })
    const error = await failure(
      send(
        { method: 'POST', url: `${url.replace('http:', 'https:')}/x`, headers: {}, body: '{}' },
        new https.Agent(),
        5_000,
      ),
    )
    expect(error.message).toBe(
      'the server answered in plain HTTP, not in TLS (ERR_SSL_WRONG_VERSION_NUMBER)',
    )
    expect(error.code).toBe('ERR_SSL_WRONG_VERSION_NUMBER')
    // It never read the request: it speaks no TLS.
    expect(error.requestSent).toBe(false)
    expect(requests).toBe(0)
  })

  it('keeps the words of an error it does not know', async () => {
    const error = await fail('something odd', 'EODD')
    expect(error.message).toBe('something odd (EODD)')
  })
})

// The URLs requests go to: a revoke's path, and the auth service's token endpoint.
