import { describe, expect, it } from '@jest/globals'
import {
  PROJECT_ID,
  timestamp,
  type TokenRecord,
  FakePlatform,
  AUTH_PATH,
} from '../support/fake-platform.mjs'
import { UUID } from '../../src/shared/records.js'
import {
  authenticate,
  call,
  create,
  list,
  revokePath,
  useFreshPlatform,
} from '../fixtures/fake-platform-calls.js'

/** The hostile options of the fake platform that the end-to-end tests rely on: its records. */

const WHOLE_SECONDS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/
const current = useFreshPlatform()

describe('timestamps', () => {
  it('writes createdAt and revokedAt with whole seconds, as the public samples do', async () => {
    const token = await authenticate()
    const created = JSON.parse((await create(token, 'ci')).body) as TokenRecord
    expect(created.createdAt).toMatch(WHOLE_SECONDS)
    const seeded = current().seed({ name: 'old', ageMs: 1234 })
    expect(seeded.createdAt).toMatch(WHOLE_SECONDS)
    const revoked = await call('api', 'POST', revokePath(created.id), { token })
    expect((JSON.parse(revoked.body) as TokenRecord).revokedAt).toMatch(WHOLE_SECONDS)
    expect(current().seed({ name: 'r', state: 'revoked' }).revokedAt).toMatch(WHOLE_SECONDS)
  })

  it('cuts the milliseconds off, never rounding up, and keeps an explicit createdAt as given', () => {
    expect(timestamp(Date.UTC(2026, 4, 26, 19, 16, 45, 999))).toBe('2026-05-26T19:16:45Z')
    expect(timestamp(Date.UTC(2026, 4, 26, 19, 16, 45, 0))).toBe('2026-05-26T19:16:45Z')
    const clocked = new FakePlatform({ now: () => Date.UTC(2026, 4, 26, 19, 16, 45, 500) })
    expect(clocked.seed({ name: 'a', ageMs: 1000 }).createdAt).toBe('2026-05-26T19:16:44Z')
    const given = '2026-05-26T19:16:45.123+02:00'
    expect(current().seed({ name: 'b', createdAt: given }).createdAt).toBe(given)
  })
})

describe('seed', () => {
  it('stores hostile fields as given: any id, another project, any state and date', async () => {
    const dots = current().seed({ name: 'dots', id: '..' })
    const dot = current().seed({
      name: 'dot',
      id: '.',
      projectId: 'another-project',
      state: 'expired',
      createdAt: 'yesterday',
    })
    expect([...current().tokens.keys()]).toEqual(['..', '.'])
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
    const record = current().seed({ name: 'plain' })
    expect(record.id).toMatch(UUID)
    expect(record.projectId).toBe(PROJECT_ID)
    expect(record.state).toBe('active')
  })
})

describe('rewriteRecord', () => {
  it('changes what the create, list and revoke answers carry, never the stored records', async () => {
    const token = await authenticate()
    const seen: string[] = []
    current().rewriteRecord = (record, answer) => {
      seen.push(answer)
      return { ...record, id: '..', name: `${record.name} ##[error]x`, projectId: 'other' }
    }
    const created = JSON.parse((await create(token, 'ci')).body) as TokenRecord
    expect(created).toMatchObject({ id: '..', name: 'ci ##[error]x', projectId: 'other' })

    const [stored] = [...current().tokens.values()]
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
    expect(current().tokens.get(id)).toMatchObject({ id, name: 'ci', state: 'revoked' })
    expect(seen).toEqual(['create', 'list', 'revoke'])
  })

  it('hands the rewrite a copy: changing it in place leaves the stored record alone', async () => {
    const token = await authenticate()
    const seeded = current().seed({ name: 'a' })
    current().rewriteRecord = (record) => {
      record.name = 'changed'
      record.state = 'revoked'
      return record
    }
    expect(await list(token)).toEqual([expect.objectContaining({ name: 'changed' })])
    expect(current().tokens.get(seeded.id)).toEqual(seeded)
  })

  it('may send something that is not a record, and a changed tokenValue counts as a secret', async () => {
    const token = await authenticate()
    current().seed({ name: 'a' })
    current().seed({ name: 'b' })
    let calls = 0
    current().rewriteRecord = (record) =>
      calls++ === 0 ? null : { ...record, tokenValue: 'rewritten-value-0123456789' }
    expect(await list(token)).toEqual([
      null,
      expect.objectContaining({ tokenValue: 'rewritten-value-0123456789' }),
    ])
    expect(current().secrets()).toContain('rewritten-value-0123456789')

    current().rewriteRecord = () => undefined
    const empty = await create(token, 'c')
    expect(empty.status).toBe(201)
    expect(empty.body).toBe('')
  })

  it('a rewrite that throws is answered 500 and kept in handlerErrors', async () => {
    const token = await authenticate()
    current().seed({ name: 'a' })
    current().rewriteRecord = () => {
      throw new Error('boom')
    }
    const answer = await call('api', 'GET', '/api/tokens', { token })
    expect(answer.status).toBe(500)
    expect(answer.body).toContain('boom')
    expect(current().handlerErrors).toHaveLength(1)
  })
})

describe('duplicateRecords', () => {
  it('sends the whole list twice over when set, once when not', async () => {
    const token = await authenticate()
    const a = current().seed({ name: 'a' })
    const b = current().seed({ name: 'b' })
    const ids = (records: unknown[]) => records.map((r) => (r as TokenRecord).id)
    expect(ids(await list(token))).toEqual([a.id, b.id])
    current().duplicateRecords = true
    expect(ids(await list(token))).toEqual([a.id, b.id, a.id, b.id])
    expect(current().tokens.size).toBe(2)
  })
})

describe('raw paths', () => {
  it('records every path exactly as sent, and routes it without normalising `..`', async () => {
    const token = await authenticate()
    const real = current().seed({ name: 'real' })
    current().seed({ name: 'dots', id: '..' })
    const answer = await call('api', 'POST', '/api/tokens/../revoke?tokenId=..', { token })
    expect(answer.status).toBe(200)
    expect(current().tokens.get('..')?.state).toBe('revoked')
    expect(current().tokens.get(real.id)?.state).toBe('active')
    const encoded = await call('api', 'POST', '/api/tokens/%2E/revoke?tokenId=.', { token })
    expect(encoded.status).toBe(404)
    expect(current().requestLines('api')).toEqual([
      'POST /api/tokens/../revoke?tokenId=..',
      'POST /api/tokens/%2E/revoke?tokenId=.',
    ])
  })
})

describe('rewriteAuth', () => {
  it('hands out any access token, which is then a secret and valid on the API', async () => {
    current().rewriteAuth = (payload) => ({
      ...(payload as object),
      access_token: 'at-\r\n::add-mask::x-€-\u0000',
    })
    const answer = await call('auth', 'POST', AUTH_PATH, {
      body: { clientId: current().clientId, secret: current().clientSecret },
    })
    const payload = JSON.parse(answer.body) as Record<string, unknown>
    expect(payload.access_token).toBe('at-\r\n::add-mask::x-€-\u0000')
    expect(payload.refresh_token).toEqual(expect.any(String))
    expect(current().secrets()).toContain('at-\r\n::add-mask::x-€-\u0000')

    current().rewriteAuth = (payload) => ({
      ...(payload as object),
      access_token: 'plain-token-42',
    })
    await call('auth', 'POST', AUTH_PATH, {
      body: { clientId: current().clientId, secret: current().clientSecret },
    })
    expect((await call('api', 'GET', '/api/tokens', { token: 'plain-token-42' })).status).toBe(200)
  })

  it('rewrites failures too, given the status and the request', async () => {
    current().rewriteAuth = (payload, { status, request }) =>
      status === 401 ? { errors: [`bad credentials in ${request.body}`] } : payload
    const answer = await call('auth', 'POST', AUTH_PATH, {
      body: { clientId: current().clientId, secret: 'wrong-secret' },
    })
    expect(answer.status).toBe(401)
    expect(answer.body).toContain('wrong-secret')
  })

  it('leaves the answer alone when unset', async () => {
    expect(await authenticate()).toMatch(/^eyJ/)
    expect(current().issuedSecrets.size).toBe(2)
  })
})
