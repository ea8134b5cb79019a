import { describe, expect, it } from '@jest/globals'
import {
  AUTH,
  CREATE,
  expectCleanFailure,
  expectNoLeaks,
  LIST,
  revokeLine,
  runAgainst,
  useFakePlatform,
} from './helpers.js'

const platform = useFakePlatform()
const HTML_502 = '<!DOCTYPE html><html><body><h1>502 Bad Gateway</h1><p>nginx</p></body></html>'

describe('reliability (the committed bundle on Node 24, against a faulty platform)', () => {
  it('retries an authentication answered 503, then succeeds', async () => {
    platform().fail({ server: 'auth', status: 503, json: { error: 'Service Unavailable' } })
    const run = await runAgainst(platform(), { operation: 'create', name: 'ci-deploy' })
    expect(run.exitCode).toBe(0)
    expect(platform().requestLines()).toEqual([AUTH, AUTH, CREATE])
    expect(run.log).toMatch(
      /answered 503 Service Unavailable \(attempt 1 of 4\): Service Unavailable; retrying in 0\.\d s\./,
    )
    expect(platform().tokens.size).toBe(1)
  })

  it('honours Retry-After on a 429', async () => {
    platform().fail({
      method: 'GET',
      path: '/api/tokens',
      status: 429,
      headers: { 'Retry-After': '1' },
    })
    const run = await runAgainst(platform(), { operation: 'list' })
    expect(run.exitCode).toBe(0)
    expect(platform().requestLines()).toEqual([AUTH, LIST, LIST])
    const [, throttled, retried] = platform().requests
    expect((retried?.at ?? 0) - (throttled?.at ?? 0)).toBeGreaterThanOrEqual(1000)
    expect(run.log).toContain(
      'answered 429 Too Many Requests (attempt 1 of 4, Retry-After: 1): Injected 429; retrying in 1.0 s.',
    )
  })

  it('retries a list whose connection was reset', async () => {
    platform().seed({ name: 'ci-deploy' })
    platform().fail({ method: 'GET', path: '/api/tokens', drop: 'reset' })
    const run = await runAgainst(platform(), { operation: 'list' })
    expect(run.exitCode).toBe(0)
    expect(run.outputs.count).toBe('1')
    expect(platform().requestLines()).toEqual([AUTH, LIST, LIST])
    expect(run.log).toContain(
      'got no answer (attempt 1 of 4): connection reset (ECONNRESET); retrying in',
    )
  })

  it('cuts off a platform that never answers after timeout seconds, and retries', async () => {
    platform().fail({ method: 'GET', path: '/api/tokens', drop: 'hang' })
    const run = await runAgainst(platform(), { operation: 'list', timeout: '1' })
    expect(run.exitCode).toBe(0)
    expect(platform().requestLines()).toEqual([AUTH, LIST, LIST])
    expect(run.log).toContain(
      'got no answer (attempt 1 of 4): no answer within 1 s (timeout); retrying in',
    )
  })

  it.each([
    ['a 502', { status: 502, body: HTML_502, headers: { 'Content-Type': 'text/html' } }],
    ['a reset', { drop: 'reset' as const }],
    ['a timeout', { drop: 'hang' as const }],
  ])(
    'adopts the token when the platform created it but the answer was lost to %s',
    async (_, fault) => {
      platform().seed({ name: 'ci-deploy', ageMs: 3_600_000 }) // an older token with the same name
      platform().fail({ method: 'POST', path: '/api/tokens', commit: true, ...fault })
      const run = await runAgainst(platform(), {
        operation: 'create',
        name: 'ci-deploy',
        timeout: '1',
      })

      expect(run.exitCode).toBe(0)
      expect(platform().requestLines()).toEqual([AUTH, CREATE, LIST])
      const created = [...platform().tokens.values()].filter(
        (t) => t.createdAt > new Date(Date.now() - 60_000).toISOString(),
      )
      expect(created).toHaveLength(1)
      expect(run.outputs.tokenId).toBe(created[0]?.id)
      expect(run.outputs.tokenValue).toBe(created[0]?.tokenValue)
      expect(run.log).toContain('The token may have been created all the same: checking the list.')
      expect(run.log).toContain(`It was: token ${created[0]?.id}`)
      expectNoLeaks(run, platform().secrets(), { allowedOutputs: ['tokenValue'] })
    },
  )

  it('creates again when the lost create had not been carried out, and says where a late one would be', async () => {
    platform().fail({ method: 'POST', path: '/api/tokens', status: 502, body: HTML_502 })
    const run = await runAgainst(platform(), { operation: 'create', name: 'ci-deploy' })
    expect(run.exitCode).toBe(0)
    // No second look at the list: without revokeOnExit, a warning says where a late one would be.
    expect(platform().requestLines()).toEqual([AUTH, CREATE, LIST, CREATE])
    expect(run.warnings).toEqual([
      expect.stringContaining(
        `An active token named 'ci-deploy' other than ${run.outputs.tokenId ?? '?'} created after`,
      ),
    ])
    expect(platform().tokens.size).toBe(1)
    expect(run.outputs.tokenId).toBe([...platform().tokens.keys()][0])
  })

  it('succeeds, with a notice, when revoking a token that is already revoked', async () => {
    const token = platform().seed({ name: 'ci-deploy', state: 'revoked' })
    const run = await runAgainst(platform(), { operation: 'revoke', tokenId: token.id })
    expect(run.exitCode).toBe(0)
    expect(platform().requestLines()).toEqual([AUTH, revokeLine(token.id), LIST])
    expect(run.notices).toEqual([
      `The gateway token 'ci-deploy' (${token.id}) was already revoked at ${token.revokedAt}; nothing to do.`,
    ])
    expect(run.outputs).toMatchObject({
      tokenId: token.id,
      state: 'revoked',
      revokedAt: token.revokedAt,
    })
    expect(run.summary).toContain('was already revoked')
  })

  it('fails on an unknown token id after one extra request, without retrying the 404', async () => {
    const id = '0f0e0d0c-0b0a-4908-8706-050403020100'
    const run = await runAgainst(platform(), { operation: 'revoke', tokenId: id })
    // The words of each failure: the golden messages of the unit tests (test/fixtures/golden.ts).
    const message = expectCleanFailure(run)
    expect(message).toMatch(/^revoke failed: /)
    expect(message).toContain(`no token with id ${id} exists in the project`)
    expect(message).toContain(`POST ${platform().baseUrl}${revokeLine(id).slice('POST '.length)}`)
    expect(message).toContain('answered 404 Not Found')
    expect(platform().requestLines()).toEqual([AUTH, revokeLine(id), LIST])
  })

  it('fails cleanly on a body that is not JSON', async () => {
    platform().fail({ method: 'GET', path: '/api/tokens', status: 200, body: '{"id": "truncat' })
    const run = await runAgainst(platform(), { operation: 'list' })
    expect(expectCleanFailure(run)).toBe(
      `list failed: GET ${platform().baseUrl}/api/tokens answered 200 with a body that is not JSON. Check the baseUrl input (${platform().baseUrl}): the action adds /api/tokens to it, so it must be the REST API's base URL, not the web app's.`,
    )
  })

  it('fails cleanly on a list that is not an array', async () => {
    platform().fail({ method: 'GET', path: '/api/tokens', status: 200, json: { items: [] } })
    const run = await runAgainst(platform(), { operation: 'list' })
    const message = expectCleanFailure(run)
    expect(message).toContain(`list failed: GET ${platform().baseUrl}/api/tokens answered 200`)
    expect(message).toContain('not a list of tokens')
  })

  it('fails after exactly retries + 1 attempts on a persistent 502 HTML page, without pasting it', async () => {
    platform().fail({
      method: 'GET',
      path: '/api/tokens',
      status: 502,
      body: HTML_502,
      headers: { 'Content-Type': 'text/html' },
      times: Infinity,
    })
    const run = await runAgainst(platform(), { operation: 'list', retries: '2' })
    const message = expectCleanFailure(run)
    expect(message).toContain(`list failed: GET ${platform().baseUrl}/api/tokens answered 502`)
    expect(message).toContain('(attempt 3 of 3)')
    expect(message).toContain('an HTML page')
    expect(platform().requestLines()).toEqual([AUTH, LIST, LIST, LIST])
    expect(run.stdout).not.toContain('nginx')
  })

  it('answers a 401 with one new authentication and one repeat', async () => {
    platform().fail({ server: 'api', status: 401, json: { error: 'Token expired' } })
    const run = await runAgainst(platform(), { operation: 'list' })
    expect(run.exitCode).toBe(0)
    expect(platform().requestLines()).toEqual([AUTH, LIST, AUTH, LIST])
    expectNoLeaks(run, platform().secrets())
  })

  it('says the access token was rejected when the repeat gets a 401 too', async () => {
    platform().fail({ server: 'api', status: 401, json: { error: 'Token revoked' }, times: 2 })
    const run = await runAgainst(platform(), { operation: 'list' })
    const message = expectCleanFailure(run)
    expect(message).toMatch(/^list failed: the access token was rejected: /)
    expect(message).toContain(`GET ${platform().baseUrl}/api/tokens answered 401`)
    expect(message).toContain('Token revoked')
    expect(platform().requestLines()).toEqual([AUTH, LIST, AUTH, LIST])
  })

  it('renews an access token that expired during the call', async () => {
    platform().accessTokenLifetime = 1
    platform().fail({ method: 'GET', path: '/api/tokens', delayMs: 1100 })
    const run = await runAgainst(platform(), { operation: 'list' })
    expect(run.exitCode).toBe(0)
    expect(platform().requestLines()).toEqual([AUTH, LIST, AUTH, LIST])
  })

  it('makes a single attempt with retries: 0', async () => {
    platform().fail({
      method: 'GET',
      path: '/api/tokens',
      status: 503,
      json: { message: 'maintenance' },
    })
    const run = await runAgainst(platform(), { operation: 'list', retries: '0' })
    const message = expectCleanFailure(run)
    expect(message).toContain(`list failed: GET ${platform().baseUrl}/api/tokens answered 503`)
    expect(message).toContain('maintenance')
    expect(message).not.toContain('attempt')
    expect(platform().requestLines()).toEqual([AUTH, LIST])
  })

  it('refuses retries out of range before any request', async () => {
    const run = await runAgainst(platform(), { operation: 'list', retries: '11' })
    expect(expectCleanFailure(run)).toBe(
      `Input 'retries' must be a whole number from 0 to 10; got "11".`,
    )
    expect(platform().requests).toEqual([])
  })
})
