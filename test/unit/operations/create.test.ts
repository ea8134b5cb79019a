import { describe, expect, it } from '@jest/globals'
import { ActionError, RequestError } from '../../../src/shared/errors.js'
import { create, handOnFailed } from '../../../src/operations/create.js'
import type { CreateOptions } from '../../../src/platform/client.js'
import type { TokenRecord } from '../../../src/shared/records.js'
import { created as result, createTask as task } from '../../fixtures/done.js'
import { FakeTokenApi, token, answeringApi as api } from '../../fixtures/token-api.js'
import { failedStep, pinMessages, thrown } from '../../fixtures/golden.js'
import { TOKEN_ID } from '../../fixtures/inputs.js'
import { fileError } from '../../fixtures/runner.js'

const existing = () => [
  token('old', 'ci-deploy', 9),
  token('newest', 'ci-deploy', 1),
  token('revoked', 'ci-deploy', 0, { state: 'revoked', tokenValue: undefined }),
  token('other', 'ci-deploy-2', 0),
]

describe('create', () => {
  it('creates one token, with no look at the list, and returns it with its value', async () => {
    const api = new FakeTokenApi(existing())
    const created = await create(api, task({ envName: 'GW_TOKEN', revokeOnExit: 'always' }))
    expect(api.calls).toEqual(['create ci-deploy'])
    // What happened, and nothing of the task: envName and revokeOnExit travel beside it.
    expect(created).toEqual({
      operation: 'create',
      token: expect.objectContaining({ name: 'ci-deploy', tokenValue: 'value-ci-deploy' }),
      reused: false,
    })
  })

  it('reuse: returns the newest active token with exactly this name, creating nothing', async () => {
    const api = new FakeTokenApi(existing())
    const reused = await create(api, task({ ifExists: 'reuse', revokeOnExit: 'always' }))
    expect(api.calls).toEqual(['list'])
    expect(reused).toEqual({
      operation: 'create',
      token: expect.objectContaining({ id: 'newest', tokenValue: 'value-newest' }),
      reused: true,
    })
  })

  it('reuse: creates when no active token has exactly this name', async () => {
    const api = new FakeTokenApi([
      token('a', 'ci-deploy-2', 1),
      token('b', 'ci-deploy', 1, { state: 'revoked' }),
    ])
    const created = await create(api, task({ ifExists: 'reuse' }))
    expect(api.calls).toEqual(['list', 'create ci-deploy'])
    expect(created.reused).toBe(false)
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
      const reused = await create(new FakeTokenApi(tokens), task({ ifExists: 'reuse' }))
      expect(reused).toMatchObject({ reused: true, token: { id: 'a-id' } })
    }
  })
})

describe('create: where the record of its create goes, and revokeOnExit beside it', () => {
  /** An API that records the options each create was sent with. */
  function recording(tokens: TokenRecord[] = []) {
    const api = new FakeTokenApi(tokens)
    const createToken = api.createToken.bind(api)
    const sent: [string, CreateOptions | undefined][] = []
    api.createToken = (name: string, options?: CreateOptions) => {
      sent.push([name, options])
      return createToken(name)
    }
    return { api, sent }
  }
  const record = () => undefined

  it('hands them to the client, which records each change of the create as it happens', async () => {
    const { api, sent } = recording()
    await create(api, task({ revokeOnExit: 'always' }), record)
    expect(sent).toEqual([['ci-deploy', { when: 'always', record }]])
  })

  it('sends no create for a reused token, so nothing is recorded: it is not this step\u2019s', async () => {
    const { api, sent } = recording(existing())
    const reused = await create(api, task({ ifExists: 'reuse', revokeOnExit: 'always' }), record)
    expect(reused.reused).toBe(true)
    expect(sent).toEqual([])
  })

  it('hands them on to the create that reuse makes when no token of the name exists', async () => {
    const { api, sent } = recording([token('other', 'ci-deploy-2', 1)])
    await create(api, task({ ifExists: 'reuse', revokeOnExit: 'failure' }), record)
    expect(sent).toEqual([['ci-deploy', { when: 'failure', record }]])
  })
})

describe('handOnFailed: a value that could not be handed on', () => {
  const why = new Error('could not write GITHUB_OUTPUT: ENOSPC: no space left on device, write.')
  const created = (api: FakeTokenApi) => api.createToken('pr-1')

  it('revokes a new token whose value could not be handed on, and says so', async () => {
    const api = new FakeTokenApi()
    const token = await created(api)
    const error = await handOnFailed(api, result(token), why)
    expect(api.tokens[0]?.state).toBe('revoked')
    expect(error.message).toBe(
      `could not write GITHUB_OUTPUT: ENOSPC: no space left on device, write. The value of the new gateway token 'pr-1' (${token.id}) was not handed on. It was revoked at once.`,
    )
  })

  it('names the token by id when the revoke at once fails too', async () => {
    const api = new FakeTokenApi()
    const token = await created(api)
    api.revokes.set(token.id, new RequestError('answered 503 Service Unavailable.', 503))
    const error = await handOnFailed(api, result(token), why)
    expect(error.message).toContain('Revoking it at once failed too')
    expect(error.message).toMatch(
      new RegExp(
        `answered 503 Service Unavailable\\. Revoke it with operation: revoke and tokenId: ${token.id}\\.$`,
      ),
    )
  })

  it('never revokes a reused token: it is not this step\u2019s', async () => {
    const api = new FakeTokenApi([token('old', 'pr-1', 1)])
    const error = await handOnFailed(api, result(token('old', 'pr-1', 1), true), why)
    expect(api.calls).toEqual([])
    expect(error.message).toMatch(/The reused gateway token 'pr-1' \(old\) stays active\.$/)
  })
})

// The words of what stops a create, whole: see test/fixtures/golden.ts.
pinMessages('create', [
  {
    situation: 'ifExists: fail, and a token of that name is active',
    message: () =>
      failedStep('create', () =>
        create(api([token('newest', 'ci-deploy', 1)]), task({ ifExists: 'fail' })),
      ),
    expected:
      "create failed: an active token named 'ci-deploy' exists already: newest, created 2026-11-21T00:00:00.000Z, and ifExists is fail.",
  },
  {
    situation: 'ifExists: reuse, and the list does not show the value',
    message: () =>
      thrown(() =>
        create(
          api([token('a', 'ci-deploy', 1, { tokenValue: undefined })]),
          task({ ifExists: 'reuse' }),
        ),
      ),
    expected:
      "an active token named 'ci-deploy' exists already: a, created 2026-11-21T00:00:00.000Z, but the platform did not return its value, so it cannot be reused.",
  },
  {
    situation: 'a new token whose value could not be written to GITHUB_OUTPUT',
    message: () =>
      failedStep('create', async () => {
        const made = result(token(TOKEN_ID, 'pr-1', 0))
        const full = fileError('GITHUB_OUTPUT', 'ENOSPC: no space left on device, write')
        throw await handOnFailed(api([]), made, full)
      }),
    expected: `create failed: could not write GITHUB_OUTPUT: ENOSPC: no space left on device, write. The value of the new gateway token 'pr-1' (${TOKEN_ID}) was not handed on. It was revoked at once.`,
  },
])
