import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import {
  AUTH_PATH,
  FakePlatform,
  nestedJson,
  PROJECT_ID,
  startFakePlatform,
  timestamp,
  type TokenRecord,
} from '../support/fake-platform.mjs'
import { UUID } from '../../src/shared/uuid.js'

/** The hostile options of the fake platform that the end-to-end tests rely on. */

const WHOLE_SECONDS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/

interface Answer {
  status: number
  statusText: string
  headers: IncomingHttpHeaders
  body: string
}

let platform: FakePlatform
beforeEach(async () => {
  platform = await startFakePlatform()
})
afterEach(async () => {
  await platform.close()
})

/**
 * One request with node:http, the path sent exactly as given (fetch would normalise
 * `..`). The reason phrase and header values come back as the bytes sent, read as UTF-8.
 */
function call(
  server: 'auth' | 'api',
  method: string,
  path: string,
  { body, token }: { body?: unknown; token?: string } = {},
): Promise<Answer> {
  const url = new URL(server === 'auth' ? platform.authUrl : platform.baseUrl)
  const payload = body === undefined ? undefined : JSON.stringify(body)
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers: {
          ...(payload === undefined ? {} : { 'Content-Type': 'application/json' }),
          ...(token === undefined ? {} : { Authorization: `Bearer ${token}` }),
        },
      },
      (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => {
          resolve({
            status: res.statusCode ?? 0,
            statusText: utf8(res.statusMessage ?? ''),
            headers: res.headers,
            body: Buffer.concat(chunks).toString('utf8'),
          })
        })
        res.on('error', reject)
      },
    )
    req.on('error', reject)
    req.end(payload)
  })
}

/** Node reads a status line and header values as latin1: the UTF-8 text the server sent. */
function utf8(latin1: string): string {
  return Buffer.from(latin1, 'latin1').toString('utf8')
}

async function authenticate(): Promise<string> {
  const answer = await call('auth', 'POST', AUTH_PATH, {
    body: { clientId: platform.clientId, secret: platform.clientSecret },
  })
  expect(answer.status).toBe(200)
  return (JSON.parse(answer.body) as { access_token: string }).access_token
}

async function list(token: string): Promise<unknown[]> {
  const answer = await call('api', 'GET', '/api/tokens', { token })
  expect(answer.status).toBe(200)
  return JSON.parse(answer.body) as unknown[]
}

async function create(token: string, name: string): Promise<Answer> {
  return call('api', 'POST', '/api/tokens', { token, body: { name } })
}

function revokePath(id: string): string {
  return `/api/tokens/${encodeURIComponent(id)}/revoke?tokenId=${encodeURIComponent(id)}`
}

describe('timestamps', () => {
  it('writes createdAt and revokedAt with whole seconds, as the public samples do', async () => {
    const token = await authenticate()
    const created = JSON.parse((await create(token, 'ci')).body) as TokenRecord
    expect(created.createdAt).toMatch(WHOLE_SECONDS)
    const seeded = platform.seed({ name: 'old', ageMs: 1234 })
    expect(seeded.createdAt).toMatch(WHOLE_SECONDS)
    const revoked = await call('api', 'POST', revokePath(created.id), { token })
    expect((JSON.parse(revoked.body) as TokenRecord).revokedAt).toMatch(WHOLE_SECONDS)
    expect(platform.seed({ name: 'r', state: 'revoked' }).revokedAt).toMatch(WHOLE_SECONDS)
  })

  it('cuts the milliseconds off, never rounding up, and keeps an explicit createdAt as given', () => {
    expect(timestamp(Date.UTC(2026, 4, 26, 19, 16, 45, 999))).toBe('2026-05-26T19:16:45Z')
    expect(timestamp(Date.UTC(2026, 4, 26, 19, 16, 45, 0))).toBe('2026-05-26T19:16:45Z')
    const clocked = new FakePlatform({ now: () => Date.UTC(2026, 4, 26, 19, 16, 45, 500) })
    expect(clocked.seed({ name: 'a', ageMs: 1000 }).createdAt).toBe('2026-05-26T19:16:44Z')
    const given = '2026-05-26T19:16:45.123+02:00'
    expect(platform.seed({ name: 'b', createdAt: given }).createdAt).toBe(given)
  })
})

describe('seed', () => {
  it('stores hostile fields as given: any id, another project, any state and date', async () => {
    const dots = platform.seed({ name: 'dots', id: '..' })
    const dot = platform.seed({
      name: 'dot',
      id: '.',
      projectId: 'another-project',
      state: 'expired',
      createdAt: 'yesterday',
    })
    expect([...platform.tokens.keys()]).toEqual(['..', '.'])
    expect(dots).toMatchObject({ id: '..', projectId: PROJECT_ID, state: 'active' })
    expect(dot).toMatchObject({ id: '.', projectId: 'another-project', state: 'expired' })
    expect(dot.tokenValue).toBeDefined()
    const records = await list(await authenticate())
    expect(records).toEqual([
      expect.objectContaining({ id: '..', name: 'dots' }),
      expect.objectContaining({ id: '.', createdAt: 'yesterday', state: 'expired' }),
    ])
  })

  it('by default gives a UUID id and this project', () => {
    const record = platform.seed({ name: 'plain' })
    expect(record.id).toMatch(UUID)
    expect(record.projectId).toBe(PROJECT_ID)
    expect(record.state).toBe('active')
  })
})

describe('rewriteRecord', () => {
  it('changes what the create, list and revoke answers carry, never the stored records', async () => {
    const token = await authenticate()
    const seen: string[] = []
    platform.rewriteRecord = (record, answer) => {
      seen.push(answer)
      return { ...record, id: '..', name: `${record.name} ##[error]x`, projectId: 'other' }
    }
    const created = JSON.parse((await create(token, 'ci')).body) as TokenRecord
    expect(created).toMatchObject({ id: '..', name: 'ci ##[error]x', projectId: 'other' })

    const [stored] = [...platform.tokens.values()]
    expect(stored?.id).toMatch(UUID)
    expect(stored).toMatchObject({ name: 'ci', projectId: PROJECT_ID, state: 'active' })
    expect(await list(token)).toEqual([
      expect.objectContaining({ id: '..', name: 'ci ##[error]x' }),
    ])

    // The real id still revokes the stored record; the answer is rewritten too.
    const id = stored?.id ?? ''
    const revoked = await call('api', 'POST', revokePath(id), { token })
    expect(revoked.status).toBe(200)
    expect(JSON.parse(revoked.body)).toMatchObject({ id: '..', state: 'revoked' })
    expect(platform.tokens.get(id)).toMatchObject({ id, name: 'ci', state: 'revoked' })
    expect(seen).toEqual(['create', 'list', 'revoke'])
  })

  it('hands the rewrite a copy: changing it in place leaves the stored record alone', async () => {
    const token = await authenticate()
    const seeded = platform.seed({ name: 'a' })
    platform.rewriteRecord = (record) => {
      record.name = 'changed'
      record.state = 'revoked'
      return record
    }
    expect(await list(token)).toEqual([expect.objectContaining({ name: 'changed' })])
    expect(platform.tokens.get(seeded.id)).toEqual(seeded)
  })

  it('may send something that is not a record, and a changed tokenValue counts as a secret', async () => {
    const token = await authenticate()
    platform.seed({ name: 'a' })
    platform.seed({ name: 'b' })
    let calls = 0
    platform.rewriteRecord = (record) =>
      calls++ === 0 ? null : { ...record, tokenValue: 'rewritten-value-0123456789' }
    expect(await list(token)).toEqual([
      null,
      expect.objectContaining({ tokenValue: 'rewritten-value-0123456789' }),
    ])
    expect(platform.secrets()).toContain('rewritten-value-0123456789')

    platform.rewriteRecord = () => undefined
    const empty = await create(token, 'c')
    expect(empty.status).toBe(201)
    expect(empty.body).toBe('')
  })

  it('a rewrite that throws is answered 500 and kept in handlerErrors', async () => {
    const token = await authenticate()
    platform.seed({ name: 'a' })
    platform.rewriteRecord = () => {
      throw new Error('boom')
    }
    const answer = await call('api', 'GET', '/api/tokens', { token })
    expect(answer.status).toBe(500)
    expect(answer.body).toContain('boom')
    expect(platform.handlerErrors).toHaveLength(1)
  })
})

describe('duplicateRecords', () => {
  it('sends the whole list twice over when set, once when not', async () => {
    const token = await authenticate()
    const a = platform.seed({ name: 'a' })
    const b = platform.seed({ name: 'b' })
    const ids = (records: unknown[]) => records.map((r) => (r as TokenRecord).id)
    expect(ids(await list(token))).toEqual([a.id, b.id])
    platform.duplicateRecords = true
    expect(ids(await list(token))).toEqual([a.id, b.id, a.id, b.id])
    expect(platform.tokens.size).toBe(2)
  })
})

describe('raw paths', () => {
  it('records every path exactly as sent, and routes it without normalising `..`', async () => {
    const token = await authenticate()
    const real = platform.seed({ name: 'real' })
    platform.seed({ name: 'dots', id: '..' })
    const answer = await call('api', 'POST', '/api/tokens/../revoke?tokenId=..', { token })
    expect(answer.status).toBe(200)
    expect(platform.tokens.get('..')?.state).toBe('revoked')
    expect(platform.tokens.get(real.id)?.state).toBe('active')
    const encoded = await call('api', 'POST', '/api/tokens/%2E/revoke?tokenId=.', { token })
    expect(encoded.status).toBe(404)
    expect(platform.requestLines('api')).toEqual([
      'POST /api/tokens/../revoke?tokenId=..',
      'POST /api/tokens/%2E/revoke?tokenId=.',
    ])
  })
})

describe('rewriteAuth', () => {
  it('hands out any access token, which is then a secret and valid on the API', async () => {
    platform.rewriteAuth = (payload) => ({
      ...(payload as object),
      access_token: 'at-\r\n::add-mask::x-€-\u0000',
    })
    const answer = await call('auth', 'POST', AUTH_PATH, {
      body: { clientId: platform.clientId, secret: platform.clientSecret },
    })
    const payload = JSON.parse(answer.body) as Record<string, unknown>
    expect(payload.access_token).toBe('at-\r\n::add-mask::x-€-\u0000')
    expect(payload.refresh_token).toEqual(expect.any(String))
    expect(platform.secrets()).toContain('at-\r\n::add-mask::x-€-\u0000')

    platform.rewriteAuth = (payload) => ({ ...(payload as object), access_token: 'plain-token-42' })
    await call('auth', 'POST', AUTH_PATH, {
      body: { clientId: platform.clientId, secret: platform.clientSecret },
    })
    expect((await call('api', 'GET', '/api/tokens', { token: 'plain-token-42' })).status).toBe(200)
  })

  it('rewrites failures too, given the status and the request', async () => {
    platform.rewriteAuth = (payload, { status, request }) =>
      status === 401 ? { errors: [`bad credentials in ${request.body}`] } : payload
    const answer = await call('auth', 'POST', AUTH_PATH, {
      body: { clientId: platform.clientId, secret: 'wrong-secret' },
    })
    expect(answer.status).toBe(401)
    expect(answer.body).toContain('wrong-secret')
  })

  it('leaves the answer alone when unset', async () => {
    expect(await authenticate()).toMatch(/^eyJ/)
    expect(platform.issuedSecrets.size).toBe(2)
  })
})

describe('faults', () => {
  it('statusText: a reason phrase of any text reaches the client', async () => {
    const token = await authenticate()
    const plain = await call('api', 'GET', '/api/tokens', { token })
    expect(plain.statusText).toBe('OK')

    platform.fail({ path: '/api/tokens', status: 503, statusText: `${token} ##[error]x` })
    const injected = await call('api', 'GET', '/api/tokens', { token })
    expect(injected).toMatchObject({ status: 503, statusText: `${token} ##[error]x` })

    // Without a status the request is carried out; only the reason phrase changes.
    platform.fail({ path: '/api/tokens', method: 'POST', statusText: 'Créé € ok' })
    const created = await create(token, 'ci')
    expect(created).toMatchObject({ status: 201, statusText: 'Créé € ok' })
    expect(platform.tokens.size).toBe(1)
  })

  it('headers: any header values, also ones Node refuses to send', async () => {
    platform.fail({
      server: 'auth',
      status: 400,
      headers: { 'X-Plain': 'ok', 'X-Euro': '€ ##[error]x', 'Set-Cookie': ['a=1', 'b=2'] },
    })
    const answer = await call('auth', 'POST', AUTH_PATH, { body: {} })
    expect(answer.status).toBe(400)
    expect(answer.headers['x-plain']).toBe('ok')
    expect(utf8(String(answer.headers['x-euro']))).toBe('€ ##[error]x')
    expect(answer.headers['set-cookie']).toEqual(['a=1', 'b=2'])
    expect(JSON.parse(answer.body)).toEqual({ error: 'Injected 400' })
  })

  it('nest: a JSON body nested so deep that it overflows the stack or parses very deep', async () => {
    expect(nestedJson(1)).toBe('{}')
    expect(nestedJson(3)).toBe('{"a":{"a":{}}}')
    expect(() => nestedJson(0)).toThrow(RangeError)

    const token = await authenticate()
    platform.fail({ method: 'GET', path: '/api/tokens', nest: 200_000 })
    const answer = await call('api', 'GET', '/api/tokens', { token })
    expect(answer.status).toBe(200)
    expect(answer.headers['content-type']).toBe('application/json')
    let depth: number | 'overflow'
    try {
      let value = JSON.parse(answer.body) as { a?: unknown } | undefined
      depth = 0
      while (value !== undefined) {
        depth++
        value = value.a as { a?: unknown } | undefined
      }
    } catch (error) {
      expect(error).toBeInstanceOf(RangeError)
      depth = 'overflow'
    }
    expect([200_000, 'overflow']).toContain(depth)
    // The next list is an ordinary one.
    expect(await list(token)).toEqual([])
  })

  it('echo: an error body that echoes the client secret, a path, the headers, or anything', async () => {
    platform.fail({ server: 'auth', status: 401, echo: 'body' })
    const secret = await call('auth', 'POST', AUTH_PATH, {
      body: { clientId: platform.clientId, secret: platform.clientSecret },
    })
    expect(secret.status).toBe(401)
    expect((JSON.parse(secret.body) as { error: string }).error).toContain(platform.clientSecret)

    const token = await authenticate()
    platform.fail({ server: 'api', status: 400, echo: 'headers' })
    const headers = await call('api', 'GET', '/api/tokens', { token })
    expect(headers.body).toContain(`Bearer ${token}`)

    platform.fail({ server: 'api', status: 404, echo: 'path' })
    expect((await call('api', 'GET', '/api/x?y=1', { token })).body).toContain('/api/x?y=1')

    platform.fail({ server: 'api', status: 418, echo: (request) => `raw ${request.method}` })
    const raw = await call('api', 'GET', '/api/tokens', { token })
    expect(raw).toMatchObject({ status: 418, body: 'raw GET' })
    expect(raw.headers['content-type']).toBe('text/plain; charset=utf-8')
  })

  it('keeps the faults it had: status, json, body and headers, once by default', async () => {
    platform.fail({
      server: 'auth',
      status: 502,
      body: '<html>bad gateway</html>',
      headers: { 'Content-Type': 'text/html' },
    })
    const html = await call('auth', 'POST', AUTH_PATH, { body: {} })
    expect(html).toMatchObject({ status: 502, body: '<html>bad gateway</html>' })
    expect(html.headers['content-type']).toBe('text/html')
    expect(platform.faultsLeft()).toBe(0)
    expect(await authenticate()).toMatch(/^eyJ/)
  })
})

describe('sendDate', () => {
  it('answers with a Date header by default, and without one when false', async () => {
    const token = await authenticate()
    expect((await call('api', 'GET', '/api/tokens', { token })).headers.date).toEqual(
      expect.any(String),
    )
    platform.sendDate = false
    expect((await call('api', 'GET', '/api/tokens', { token })).headers).not.toHaveProperty('date')
    // Also on an answer written by hand (a header Node refuses).
    platform.fail({ server: 'api', status: 500, headers: { 'X-Euro': '€' } })
    expect((await call('api', 'GET', '/api/tokens', { token })).headers).not.toHaveProperty('date')
  })

  it('dates answers and records by its own clock, clockOffsetMs apart from the runner', async () => {
    const token = await authenticate()
    platform.clockOffsetMs = -2 * 86_400_000
    const answer = await call('api', 'GET', '/api/tokens', { token })
    const date = Date.parse(String(answer.headers.date))
    expect(Math.abs(date - (Date.now() - 2 * 86_400_000))).toBeLessThan(5_000)
    const seeded = platform.seed({ name: 'x', ageMs: 0 })
    expect(Math.abs(Date.parse(seeded.createdAt) - date)).toBeLessThan(5_000)
    // Also on an answer written by hand.
    platform.fail({ server: 'api', status: 500, headers: { 'X-Euro': '€' } })
    const raw = await call('api', 'GET', '/api/tokens', { token })
    expect(Math.abs(Date.parse(String(raw.headers.date)) - date)).toBeLessThan(5_000)
  })
})

describe('alreadyRevokedStatus', () => {
  it.each([409, 400, 404] as const)(
    'refuses a revoke of a revoked token with %d',
    async (status) => {
      const token = await authenticate()
      const revoked = platform.seed({ name: 'x', state: 'revoked' })
      platform.alreadyRevokedStatus = status
      const path = `/api/tokens/${revoked.id}/revoke?tokenId=${revoked.id}`
      expect((await call('api', 'POST', path, { token })).status).toBe(status)
    },
  )
})

describe('limits: requests in flight and a token bucket', () => {
  const list = (token: string) => call('api', 'GET', '/api/tokens', { token })

  it('answers 429 to a request over the in-flight limit, with Retry-After 1, 0 or none', async () => {
    const token = await authenticate()
    platform.latencyMs = 50
    for (const [style, header] of [
      [undefined, '1'],
      ['0', '0'],
      ['none', undefined],
    ] as const) {
      platform.inFlightLimit = style === undefined ? { max: 2 } : { max: 2, retryAfter: style }
      const answers = await Promise.all([list(token), list(token), list(token), list(token)])
      expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 429, 429])
      for (const answer of answers.filter((a) => a.status === 429))
        expect(answer.headers['retry-after']).toBe(header)
    }
    expect(platform.maxInFlight).toBe(2)
    expect(platform.throttled).toBe(6)
    // One at a time stays under the limit.
    expect((await list(token)).status).toBe(200)
  })

  it('lets a burst through, then paces requests to the rate, with the wait rounded up to seconds', async () => {
    const token = await authenticate()
    platform.rateLimit = { perSecond: 10, burst: 2 }
    const answers = [await list(token), await list(token), await list(token)]
    expect(answers.map((a) => a.status)).toEqual([200, 200, 429])
    expect(answers[2]?.headers['retry-after']).toBe('1')
    await new Promise((resolve) => setTimeout(resolve, 120))
    expect((await list(token)).status).toBe(200)
    platform.rateLimit = { perSecond: 10, burst: 1, retryAfter: 'none' }
    await list(token)
    expect((await list(token)).headers).not.toHaveProperty('retry-after')
  })
})
