import { describe, expect, it } from '@jest/globals'
import { nestedJson, AUTH_PATH } from '../support/fake-platform.mjs'
import {
  authenticate,
  call,
  create,
  list,
  useFreshPlatform,
  utf8,
} from '../fixtures/fake-platform-calls.js'

/** The hostile options of the fake platform that the end-to-end tests rely on: faults. */

const current = useFreshPlatform()

describe('faults', () => {
  it('statusText: a reason phrase of any text reaches the client', async () => {
    const token = await authenticate()
    const plain = await call('api', 'GET', '/api/tokens', { token })
    expect(plain.statusText).toBe('OK')

    current().fail({ path: '/api/tokens', status: 503, statusText: `${token} ##[error]x` })
    const injected = await call('api', 'GET', '/api/tokens', { token })
    expect(injected).toMatchObject({ status: 503, statusText: `${token} ##[error]x` })

    // Without a status the request is carried out; only the reason phrase changes.
    current().fail({ path: '/api/tokens', method: 'POST', statusText: 'Créé € ok' })
    const created = await create(token, 'ci')
    expect(created).toMatchObject({ status: 201, statusText: 'Créé € ok' })
    expect(current().tokens.size).toBe(1)
  })

  it('headers: any header values, also ones Node refuses to send', async () => {
    current().fail({
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
    current().fail({ method: 'GET', path: '/api/tokens', nest: 200_000 })
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
    current().fail({ server: 'auth', status: 401, echo: 'body' })
    const secret = await call('auth', 'POST', AUTH_PATH, {
      body: { clientId: current().clientId, secret: current().clientSecret },
    })
    expect(secret.status).toBe(401)
    expect((JSON.parse(secret.body) as { error: string }).error).toContain(current().clientSecret)

    const token = await authenticate()
    current().fail({ server: 'api', status: 400, echo: 'headers' })
    const headers = await call('api', 'GET', '/api/tokens', { token })
    expect(headers.body).toContain(`Bearer ${token}`)

    current().fail({ server: 'api', status: 404, echo: 'path' })
    expect((await call('api', 'GET', '/api/x?y=1', { token })).body).toContain('/api/x?y=1')

    current().fail({ server: 'api', status: 418, echo: (request) => `raw ${request.method}` })
    const raw = await call('api', 'GET', '/api/tokens', { token })
    expect(raw).toMatchObject({ status: 418, body: 'raw GET' })
    expect(raw.headers['content-type']).toBe('text/plain; charset=utf-8')
  })

  it('keeps the faults it had: status, json, body and headers, once by default', async () => {
    current().fail({
      server: 'auth',
      status: 502,
      body: '<html>bad gateway</html>',
      headers: { 'Content-Type': 'text/html' },
    })
    const html = await call('auth', 'POST', AUTH_PATH, { body: {} })
    expect(html).toMatchObject({ status: 502, body: '<html>bad gateway</html>' })
    expect(html.headers['content-type']).toBe('text/html')
    expect(current().faultsLeft()).toBe(0)
    expect(await authenticate()).toMatch(/^eyJ/)
  })
})

describe('sendDate', () => {
  it('answers with a Date header by default, and without one when false', async () => {
    const token = await authenticate()
    expect((await call('api', 'GET', '/api/tokens', { token })).headers.date).toEqual(
      expect.any(String),
    )
    current().sendDate = false
    expect((await call('api', 'GET', '/api/tokens', { token })).headers).not.toHaveProperty('date')
    // Also on an answer written by hand (a header Node refuses).
    current().fail({ server: 'api', status: 500, headers: { 'X-Euro': '€' } })
    expect((await call('api', 'GET', '/api/tokens', { token })).headers).not.toHaveProperty('date')
  })

  it('dates answers and records by its own clock, clockOffsetMs apart from the runner', async () => {
    const token = await authenticate()
    current().clockOffsetMs = -2 * 86_400_000
    const answer = await call('api', 'GET', '/api/tokens', { token })
    const date = Date.parse(String(answer.headers.date))
    expect(Math.abs(date - (Date.now() - 2 * 86_400_000))).toBeLessThan(5_000)
    const seeded = current().seed({ name: 'x', ageMs: 0 })
    expect(Math.abs(Date.parse(seeded.createdAt) - date)).toBeLessThan(5_000)
    // Also on an answer written by hand.
    current().fail({ server: 'api', status: 500, headers: { 'X-Euro': '€' } })
    const raw = await call('api', 'GET', '/api/tokens', { token })
    expect(Math.abs(Date.parse(String(raw.headers.date)) - date)).toBeLessThan(5_000)
  })
})

describe('alreadyRevokedStatus', () => {
  it.each([409, 400, 404] as const)(
    'refuses a revoke of a revoked token with %d',
    async (status) => {
      const token = await authenticate()
      const revoked = current().seed({ name: 'x', state: 'revoked' })
      current().alreadyRevokedStatus = status
      const path = `/api/tokens/${revoked.id}/revoke?tokenId=${revoked.id}`
      expect((await call('api', 'POST', path, { token })).status).toBe(status)
    },
  )
})
