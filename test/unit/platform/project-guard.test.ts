import { describe, expect, it } from '@jest/globals'
import { ActionError, RequestError } from '../../../src/shared/errors.js'
import { ProjectGuard } from '../../../src/platform/project-guard.js'
import { FakeTokenApi, token, answeringApi as api } from '../../fixtures/token-api.js'
import { failedStep, pinMessages, thrown } from '../../fixtures/golden.js'
import { PROJECT_ID, TOKEN_ID } from '../../fixtures/inputs.js'
import { API } from '../../fixtures/nock-platform.js'

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

const OTHER_PROJECT = '0b8d9c7a-6e5f-4a3b-8c2d-1e0f9a8b7c6d'
const REVOKE = `POST ${API}/api/tokens/${TOKEN_ID}/revoke?tokenId=${TOKEN_ID}`
/** A new token 'ci-deploy', created in another project than expectedProjectId. */
const elsewhere = token(TOKEN_ID, 'ci-deploy', 0, { projectId: OTHER_PROJECT })
const refusal = (message: string, status: number) =>
  Promise.reject(new RequestError(message, status))

// The words of each refusal, whole: see test/fixtures/golden.ts.
pinMessages('expectedProjectId', [
  {
    situation: 'expectedProjectId, and the list holds a token of another project',
    message: () =>
      thrown(() =>
        new ProjectGuard(
          api([token('b', 'prod', 1, { projectId: OTHER_PROJECT })]),
          PROJECT_ID,
        ).listTokens(),
      ),
    expected: `the platform listed 'prod' (b) of project ${OTHER_PROJECT}, but expectedProjectId is ${PROJECT_ID}: these credentials reach another project. Nothing was revoked or created; check clientId, clientSecret and baseUrl.`,
  },
  {
    situation: 'expectedProjectId, and the new token is of another project',
    message: () =>
      failedStep('create', () =>
        new ProjectGuard(api([elsewhere]), PROJECT_ID).createToken('ci-deploy'),
      ),
    expected: `create failed: the new token 'ci-deploy' (${TOKEN_ID}) belongs to project ${OTHER_PROJECT}, but expectedProjectId is ${PROJECT_ID}: its value was not handed on. It was revoked at once. Check clientId, clientSecret and baseUrl.`,
  },
  {
    situation: 'expectedProjectId, the new token is of another project, and its revoke fails',
    message: () => {
      const revoke = () =>
        refusal(`${REVOKE} answered 403 Forbidden: Your role may not revoke this token.`, 403)
      return failedStep('create', () =>
        new ProjectGuard(api([elsewhere], { revoke }), PROJECT_ID).createToken('ci-deploy'),
      )
    },
    expected: `create failed: the new token 'ci-deploy' (${TOKEN_ID}) belongs to project ${OTHER_PROJECT}, but expectedProjectId is ${PROJECT_ID}: its value was not handed on. Revoking it at once failed too: ${REVOKE} answered 403 Forbidden: Your role may not revoke this token. Revoke it with operation: revoke and tokenId: ${TOKEN_ID}. Check clientId, clientSecret and baseUrl.`,
  },
])
