import { describe, expect, it } from '@jest/globals'
import { ActionError } from '../../../src/shared/errors.js'
import { create, revokeUnhanded, type CreateNotes } from '../../../src/operations/create.js'
import type { CreateOptions } from '../../../src/platform/token-api.js'
import type { TokenRecord } from '../../../src/shared/records.js'
import { RequestError } from '../../../src/platform/errors.js'
import { created as result, createTask as task } from '../../fixtures/done.js'
import { FakeTokenApi, token } from '../../fixtures/token-api.js'
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

describe('create: what it tells the notes (revokeOnExit, for the post step)', () => {
  /**
   * Notes that record what they are told, in one log with what the API is sent; the API
   * answers the create as `answer` says, told the options it was given.
   */
  function told(
    tokens: TokenRecord[] = [],
    answer: (options: CreateOptions | undefined) => void = () => undefined,
  ) {
    const log: string[] = []
    const api = new FakeTokenApi(tokens)
    const createToken = api.createToken.bind(api)
    const sent: unknown[][] = []
    api.createToken = (...args: [string, CreateOptions?]) => {
      sent.push(args)
      log.push(`send ${args[0]}`)
      answer(args[1])
      return createToken(args[0])
    }
    const tokensTold: TokenRecord[] = []
    const notes: CreateNotes = {
      sending: (name) => {
        log.push(`sending ${name}`)
      },
      answerLost: () => {
        log.push('answerLost')
      },
      created: (token) => {
        log.push(`created ${token.id}`)
        tokensTold.push(token)
      },
    }
    return { api, notes, log, sent, tokensTold }
  }

  it('tells sending just before the create is sent, and created with the token right after', async () => {
    const { api, notes, log, tokensTold } = told()
    const created = await create(api, task({ revokeOnExit: 'always' }), notes)
    expect(log).toEqual(['sending ci-deploy', 'send ci-deploy', 'created id-1'])
    // The very token the create returns.
    expect(tokensTold).toEqual([created.token])
    expect(created).toEqual({ operation: 'create', token: tokensTold[0], reused: false })
  })

  it('hands createToken an onLostAnswer that tells answerLost, between sending and created', async () => {
    const { api, notes, log, sent } = told([], (options) => {
      // The client tells of an attempt whose answer was lost, then sends the create again.
      options?.onLostAnswer?.()
    })
    await create(api, task({ revokeOnExit: 'failure' }), notes)
    expect(sent).toEqual([['ci-deploy', { onLostAnswer: expect.any(Function) }]])
    expect(log).toEqual(['sending ci-deploy', 'send ci-deploy', 'answerLost', 'created id-1'])
  })

  it('tells nothing for a reused token: no create is sent, and it is not this step\u2019s', async () => {
    const { api, notes, log, sent } = told(existing())
    const reused = await create(api, task({ ifExists: 'reuse', revokeOnExit: 'always' }), notes)
    expect(reused.reused).toBe(true)
    expect(log).toEqual([])
    expect(sent).toEqual([])
  })

  it('tells of the create that reuse makes when no token of the name exists', async () => {
    const { api, notes, log } = told([token('other', 'ci-deploy-2', 1)])
    await create(api, task({ ifExists: 'reuse', revokeOnExit: 'always' }), notes)
    expect(log).toEqual(['sending ci-deploy', 'send ci-deploy', 'created id-1'])
  })

  it('tells sending and no more when the create fails', async () => {
    const { api, notes, log } = told([], () => {
      throw new RequestError('POST /api/tokens got no answer.')
    })
    await expect(create(api, task({ revokeOnExit: 'always' }), notes)).rejects.toThrow(
      'POST /api/tokens got no answer.',
    )
    expect(log).toEqual(['sending ci-deploy', 'send ci-deploy'])
  })

  it('without notes, sends the create with the name alone, as before', async () => {
    const { api, log, sent } = told()
    const created = await create(api, task())
    expect(sent).toEqual([['ci-deploy']])
    expect(log).toEqual(['send ci-deploy'])
    expect(created.reused).toBe(false)
  })
})

describe('revokeUnhanded (case 1 of issue 18)', () => {
  const why = new Error('could not write GITHUB_OUTPUT: ENOSPC: no space left on device, write.')
  const created = (api: FakeTokenApi) => api.createToken('pr-1')

  it('revokes a new token whose value could not be handed on, and says so', async () => {
    const api = new FakeTokenApi()
    const token = await created(api)
    const error = await revokeUnhanded(api, result(token), why)
    expect(api.tokens[0]?.state).toBe('revoked')
    expect(error.message).toBe(
      `could not write GITHUB_OUTPUT: ENOSPC: no space left on device, write. The new gateway token 'pr-1' (${token.id}) was revoked at once, as its value was not handed on.`,
    )
  })

  it('names the token by id when the revoke at once fails too', async () => {
    const api = new FakeTokenApi()
    const token = await created(api)
    api.revokes.set(token.id, new RequestError('answered 503 Service Unavailable.', 503))
    const error = await revokeUnhanded(api, result(token), why)
    expect(error.message).toContain('revoking the new gateway token')
    expect(error.message).toMatch(
      new RegExp(
        `answered 503 Service Unavailable\\. Revoke it with operation: revoke and tokenId: ${token.id}\\.$`,
      ),
    )
  })

  it('never revokes a reused token: it is not this step\u2019s', async () => {
    const api = new FakeTokenApi([token('old', 'pr-1', 1)])
    const error = await revokeUnhanded(api, result(token('old', 'pr-1', 1), true), why)
    expect(api.calls).toEqual([])
    expect(error.message).toMatch(/The reused gateway token 'pr-1' \(old\) stays active\.$/)
  })
})
