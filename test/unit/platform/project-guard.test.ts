import { describe, expect, it } from '@jest/globals'
import { ActionError } from '../../../src/shared/errors.js'
import { ProjectGuard } from '../../../src/platform/project-guard.js'
import { FakeTokenApi, token } from '../../fixtures/token-api.js'

const OURS = '6f1c2a8e-3b4d-4e5f-9a0b-1c2d3e4f5a6b'
const THEIRS = '0b8d9c7a-6e5f-4a3b-8c2d-1e0f9a8b7c6d'
const ID = '123e4567-e89b-42d3-a456-426614174000'
const ours = (id: string, name = 'ci') => token(id, name, 40, { projectId: OURS })

describe('ProjectGuard', () => {
  it('passes a list of the expected project through', async () => {
    const api = new FakeTokenApi([ours('a'), ours('b')])
    const guard = new ProjectGuard(api, OURS.toUpperCase())
    await expect(guard.listTokens()).resolves.toHaveLength(2)
  })

  it('fails a list holding a record of another project, naming both ids and the input', async () => {
    const api = new FakeTokenApi([ours('a'), token('b', 'prod', 1, { projectId: THEIRS })])
    const error = await new ProjectGuard(api, OURS).listTokens().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ActionError)
    expect((error as Error).message).toBe(
      `the platform listed 'prod' (b) of project ${THEIRS}, but expectedProjectId is ${OURS}: these credentials reach another project. Nothing was revoked or created; check clientId, clientSecret and baseUrl.`,
    )
  })

  it('treats a record without a projectId as not of the expected project', async () => {
    const api = new FakeTokenApi([token('a', 'ci', 1)])
    await expect(new ProjectGuard(api, OURS).listTokens()).rejects.toThrow(
      /of project \(none given\), but expectedProjectId is/,
    )
  })

  it('revokes at once a token created in another project, and hands nothing on', async () => {
    const api = new FakeTokenApi([])
    const create = api.createToken.bind(api)
    api.createToken = async (name) => ({ ...(await create(name)), projectId: THEIRS })
    const error = await new ProjectGuard(api, OURS).createToken('ci').catch((e: unknown) => e)
    expect((error as Error).message).toMatch(
      new RegExp(
        `^the new token 'ci' \\(id-1\\) belongs to project ${THEIRS}, but expectedProjectId is ${OURS}: its value was not handed on\\. It was revoked at once\\.`,
      ),
    )
    expect((error as Error).message).not.toContain('value-ci')
    expect(api.calls).toEqual(['create ci', 'revoke id-1'])
    expect(api.tokens[0]?.state).toBe('revoked')
  })

  it('returns a token created in the expected project, with no other request', async () => {
    const api = new FakeTokenApi([])
    const create = api.createToken.bind(api)
    api.createToken = async (name) => ({ ...(await create(name)), projectId: OURS })
    await expect(new ProjectGuard(api, OURS).createToken('ci')).resolves.toMatchObject({
      tokenValue: 'value-ci',
    })
    expect(api.calls).toEqual(['create ci'])
  })

  it('revokes a token it saw created in the expected project with no list first', async () => {
    const api = new FakeTokenApi([])
    const create = api.createToken.bind(api)
    api.createToken = async (name) => ({ ...(await create(name)), projectId: OURS })
    const guard = new ProjectGuard(api, OURS)
    const made = await guard.createToken('ci')
    await guard.revokeToken(made.id.toUpperCase())
    // A revoke at once (a value that could not be handed on) spends nothing on a list.
    expect(api.calls).toEqual(['create ci', `revoke ${made.id.toUpperCase()}`])
  })

  it("checks a token's project before revoking it", async () => {
    const api = new FakeTokenApi([token(ID, 'prod', 1, { projectId: THEIRS })])
    await expect(new ProjectGuard(api, OURS).revokeToken(ID)).rejects.toThrow(
      /expectedProjectId is/,
    )
    expect(api.calls).toEqual(['list'])
    expect(api.tokens[0]?.state).toBe('active')
  })

  it('revokes a token of the expected project after one look, and none after a checked list', async () => {
    const api = new FakeTokenApi([ours(ID), ours('other')])
    const guard = new ProjectGuard(api, OURS)
    await guard.revokeToken(ID)
    expect(api.calls).toEqual(['list', `revoke ${ID}`])
    await guard.revokeToken('other')
    expect(api.calls).toEqual(['list', `revoke ${ID}`, 'revoke other'])
  })
})
