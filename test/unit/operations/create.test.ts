import { describe, expect, it } from '@jest/globals'
import { ActionError } from '../../../src/shared/errors.js'
import type { CreateTask } from '../../../src/inputs/task.js'
import { create, revokeUnhanded, type CreateResult } from '../../../src/operations/create.js'
import { RequestError } from '../../../src/platform/errors.js'
import { FakeTokenApi, token } from '../../fixtures/token-api.js'

const task = (fields: Partial<CreateTask> = {}): CreateTask => ({
  operation: 'create',
  name: 'ci-deploy',
  envName: undefined,
  ifExists: 'create',
  revokeOnExit: 'never',
  writeTokenFile: false,
  ...fields,
})
const existing = () => [
  token('old', 'ci-deploy', 9),
  token('newest', 'ci-deploy', 1),
  token('revoked', 'ci-deploy', 0, { state: 'revoked', tokenValue: undefined }),
  token('other', 'ci-deploy-2', 0),
]

/** A create's result, its token to be given. */
const RESULT: Omit<CreateResult, 'token'> = {
  operation: 'create',
  reused: false,
  envName: undefined,
  revokeOnExit: 'never',
  revokeOnExitSkipped: false,
}

describe('create', () => {
  it('creates one token, with no look at the list, and returns it with its value', async () => {
    const api = new FakeTokenApi(existing())
    const result = await create(api, task({ envName: 'GW_TOKEN', revokeOnExit: 'always' }))
    expect(api.calls).toEqual(['create ci-deploy'])
    expect(result).toEqual({
      operation: 'create',
      token: expect.objectContaining({ name: 'ci-deploy', tokenValue: 'value-ci-deploy' }),
      reused: false,
      envName: 'GW_TOKEN',
      revokeOnExit: 'always',
      revokeOnExitSkipped: false,
    })
  })

  it('reuse: returns the newest active token with exactly this name, creating nothing', async () => {
    const api = new FakeTokenApi(existing())
    const result = await create(api, task({ ifExists: 'reuse', revokeOnExit: 'always' }))
    expect(api.calls).toEqual(['list'])
    expect(result).toMatchObject({
      reused: true,
      revokeOnExit: 'never',
      revokeOnExitSkipped: true,
      token: { id: 'newest', tokenValue: 'value-newest' },
    })
  })

  it('reuse: creates when no active token has exactly this name', async () => {
    const api = new FakeTokenApi([
      token('a', 'ci-deploy-2', 1),
      token('b', 'ci-deploy', 1, { state: 'revoked' }),
    ])
    const result = await create(api, task({ ifExists: 'reuse' }))
    expect(api.calls).toEqual(['list', 'create ci-deploy'])
    expect(result.reused).toBe(false)
  })

  it('reuse: refuses a token whose value the list does not show', async () => {
    const api = new FakeTokenApi([token('a', 'ci-deploy', 1, { tokenValue: undefined })])
    await expect(create(api, task({ ifExists: 'reuse' }))).rejects.toThrow(
      "an active token named 'ci-deploy' exists already: a, created 2026-11-21T00:00:00.000Z, but the platform did not return its value, so it cannot be reused.",
    )
  })

  it('fail: fails naming the existing token, creating nothing', async () => {
    const api = new FakeTokenApi(existing())
    const error = await create(api, task({ ifExists: 'fail' })).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ActionError)
    expect((error as Error).message).toBe(
      "an active token named 'ci-deploy' exists already: newest, created 2026-11-21T00:00:00.000Z, and ifExists is fail.",
    )
    expect(api.calls).toEqual(['list'])
  })

  it('fail: creates when none exists', async () => {
    const api = new FakeTokenApi([token('r', 'ci-deploy', 1, { state: 'revoked' })])
    await create(api, task({ ifExists: 'fail' }))
    expect(api.calls).toEqual(['list', 'create ci-deploy'])
  })

  it('reuses the same token of two created in the same second, whatever the list order', async () => {
    const at = '2026-11-20T10:00:01Z'
    const tied = [
      token('b-id', 'ci-deploy', 0, { createdAt: at }),
      token('a-id', 'ci-deploy', 0, { createdAt: at }),
    ]
    for (const tokens of [tied, [...tied].reverse()]) {
      const result = await create(new FakeTokenApi(tokens), task({ ifExists: 'reuse' }))
      expect(result).toMatchObject({ reused: true, token: { id: 'a-id' } })
    }
  })
})

describe('revokeUnhanded (case 1 of issue 18)', () => {
  const why = new Error('could not write GITHUB_OUTPUT: ENOSPC: no space left on device, write.')
  const created = (api: FakeTokenApi) => api.createToken('pr-1')

  it('revokes a new token whose value could not be handed on, and says so', async () => {
    const api = new FakeTokenApi()
    const token = await created(api)
    const error = await revokeUnhanded(api, { ...RESULT, token }, why)
    expect(api.tokens[0]?.state).toBe('revoked')
    expect(error.message).toBe(
      `could not write GITHUB_OUTPUT: ENOSPC: no space left on device, write. The new gateway token 'pr-1' (${token.id}) was revoked at once, as its value was not handed on.`,
    )
  })

  it('names the token by id when the revoke at once fails too', async () => {
    const api = new FakeTokenApi()
    const token = await created(api)
    api.refusals.set(token.id, new RequestError('answered 503 Service Unavailable.', 503))
    const error = await revokeUnhanded(api, { ...RESULT, token }, why)
    expect(error.message).toContain('revoking the new gateway token')
    expect(error.message).toMatch(
      new RegExp(
        `answered 503 Service Unavailable\\. Revoke it with operation: revoke and tokenId: ${token.id}\\.$`,
      ),
    )
  })

  it('never revokes a reused token: it is not this step\u2019s', async () => {
    const api = new FakeTokenApi([token('old', 'pr-1', 1)])
    const error = await revokeUnhanded(
      api,
      { ...RESULT, token: token('old', 'pr-1', 1), reused: true },
      why,
    )
    expect(api.calls).toEqual([])
    expect(error.message).toMatch(/The reused gateway token 'pr-1' \(old\) stays active\.$/)
  })
})
