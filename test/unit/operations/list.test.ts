import { describe, expect, it } from '@jest/globals'
import { list } from '../../../src/operations/list.js'
import { FakeTokenApi, token } from '../../fixtures/token-api.js'

const tokens = () => [
  token('a', 'ci-eu', 5),
  token('b', 'prod', 1),
  token('c', 'ci-us', 9, { state: 'revoked', tokenValue: undefined }),
  token('d', 'ci-eu', 2),
]

describe('list', () => {
  it('returns every record newest first, with the total', async () => {
    const api = new FakeTokenApi(tokens())
    const result = await list(api, { operation: 'list', name: undefined, state: 'all' })
    expect(result.tokens.map((t) => t.id)).toEqual(['b', 'd', 'a', 'c'])
    expect(result.total).toBe(4)
    expect(api.calls).toEqual(['list'])
  })

  it('filters by a name pattern and by state', async () => {
    const api = new FakeTokenApi(tokens())
    const active = await list(api, { operation: 'list', name: 'ci-*', state: 'active' })
    expect(active.tokens.map((t) => t.id)).toEqual(['d', 'a'])
    const revoked = await list(api, { operation: 'list', name: 'ci-*', state: 'revoked' })
    expect(revoked.tokens.map((t) => t.id)).toEqual(['c'])
    const exact = await list(api, { operation: 'list', name: 'ci-eu', state: 'all' })
    expect(exact.tokens.map((t) => t.id)).toEqual(['d', 'a'])
  })
})
