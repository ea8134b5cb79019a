import { describe, expect, it } from '@jest/globals'
import type { AuditTask, CleanupTask, ListTask, RevokeTask } from '../../../src/inputs/read.js'
import type { CreateOptions } from '../../../src/platform/client.js'
import { perform } from '../../../src/operations/index.js'
import { Deadline } from '../../../src/shared/time.js'
import { FakeClock } from '../../fixtures/clock.js'
import { cleanupTask, createTask, listTask } from '../../fixtures/done.js'
import { recordingRunner } from '../../fixtures/runner.js'
import { FakeTokenApi, token } from '../../fixtures/token-api.js'

const ID = '123e4567-e89b-42d3-a456-426614174000'
const days = (n: number) => ({ text: `${n}d`, ms: n * 86_400_000 })

const context = () => {
  const clock = new FakeClock()
  return { clock, log: recordingRunner(), deadline: new Deadline(clock, 0) }
}

describe('perform', () => {
  it('runs each operation against the client, and returns its result beside the task', async () => {
    const api = new FakeTokenApi([token(ID, 'ci', 40)])
    const listing = listTask()
    const listed = await perform(api, listing, context())
    expect(listed).toEqual({
      operation: 'list',
      task: listing,
      result: { operation: 'list', tokens: [expect.objectContaining({ id: ID })], total: 1 },
    })
    expect(listed.task).toBe(listing)
    const revokeTask: RevokeTask = { operation: 'revoke', tokenId: ID }
    const revoked = await perform(api, revokeTask, context())
    expect(revoked).toEqual({
      operation: 'revoke',
      task: revokeTask,
      result: expect.objectContaining({ operation: 'revoke', alreadyRevoked: false }),
    })
    const cleaning = cleanupTask({ name: ['ci'], olderThan: undefined, dryRun: true })
    const cleaned = await perform(api, cleaning, context())
    expect(cleaned).toMatchObject({
      operation: 'cleanup',
      task: cleaning,
      result: { operation: 'cleanup', revoked: [] },
    })
    expect(cleaned.task).toBe(cleaning)
    expect(api.calls).toEqual(['list', `revoke ${ID}`, 'list'])
  })

  it('list, cleanup and audit: the project of every record listed, not only of those taken', async () => {
    const P = '6f1c2a8e-3b4d-4e5f-9a0b-1c2d3e4f5a6b'
    const api = new FakeTokenApi([
      token('a', 'ci', 100, { projectId: P }),
      token('b', 'prod', 1, { projectId: P }),
    ])
    const tasks: [ListTask, AuditTask, CleanupTask] = [
      listTask({ name: ['none'], state: 'all' }),
      { operation: 'audit', name: ['none'], olderThan: days(90) },
      cleanupTask({ name: ['none'], dryRun: true }),
    ]
    for (const task of tasks) {
      const done = await perform(api, task, context())
      expect([task.operation, done.result]).toEqual([
        task.operation,
        expect.objectContaining({ project: { id: P } }),
      ])
    }
    api.tokens.push(token('c', 'ci', 5, { projectId: '0d4e5f6a-7b8c-4d9e-8f0a-1b2c3d4e5f6a' }))
    const listed = await perform(api, tasks[0], context())
    expect(listed.result).toMatchObject({ project: 'several' })
  })

  it('create: hands the context’s record to the create, with revokeOnExit, and returns the task beside it', async () => {
    const api = new FakeTokenApi()
    const createToken = api.createToken.bind(api)
    const sent: unknown[] = []
    api.createToken = (name: string, options?: CreateOptions) => {
      sent.push(options)
      return createToken(name)
    }
    const record: CreateOptions['record'] = () => undefined
    const task = createTask({ revokeOnExit: 'always' })
    const done = await perform(api, task, { ...context(), record })
    expect(done).toEqual({
      operation: 'create',
      task,
      result: {
        operation: 'create',
        token: expect.objectContaining({ id: 'id-1' }),
        reused: false,
      },
    })
    expect(sent).toEqual([{ when: 'always', record }])
  })

  it('create without a record: creates all the same', async () => {
    const api = new FakeTokenApi()
    const done = await perform(api, createTask(), context())
    expect(done.operation).toBe('create')
    expect(api.calls).toEqual(['create ci-deploy'])
  })
})

/** list and revoke, as perform runs them, with the context they do not use. */
const list = async (api: FakeTokenApi, task: ListTask) => {
  const outcome = await perform(api, task, context())
  if (outcome.operation !== 'list') throw new Error('not a list')
  return outcome.result
}
const revoke = async (api: FakeTokenApi, task: RevokeTask) => {
  const outcome = await perform(api, task, context())
  if (outcome.operation !== 'revoke') throw new Error('not a revoke')
  return outcome.result
}

describe('list', () => {
  const tokens = () => [
    token('a', 'ci-eu', 5),
    token('b', 'prod', 1),
    token('c', 'ci-us', 9, { state: 'revoked', tokenValue: undefined }),
    token('d', 'ci-eu', 2),
  ]

  it('returns every record newest first, with the total', async () => {
    const api = new FakeTokenApi(tokens())
    const result = await list(api, listTask())
    expect(result.tokens.map((t) => t.id)).toEqual(['b', 'd', 'a', 'c'])
    expect(result.total).toBe(4)
    expect(api.calls).toEqual(['list'])
  })

  it('filters by a name pattern and by state', async () => {
    const api = new FakeTokenApi(tokens())
    const active = await list(api, listTask({ name: ['ci-*'], state: 'active' }))
    expect(active.tokens.map((t) => t.id)).toEqual(['d', 'a'])
    const revoked = await list(api, listTask({ name: ['ci-*'], state: 'revoked' }))
    expect(revoked.tokens.map((t) => t.id)).toEqual(['c'])
    const exact = await list(api, listTask({ name: ['ci-eu'], state: 'all' }))
    expect(exact.tokens.map((t) => t.id)).toEqual(['d', 'a'])
  })
})

describe('revoke', () => {
  it('passes on that the token was revoked already', async () => {
    const revoked = token('a', 'ci', 1, { state: 'revoked', tokenValue: undefined })
    const api = new FakeTokenApi([revoked])
    // What the client answers once the list has settled the platform's refusal.
    api.revokes.set('a', { token: revoked, alreadyRevoked: true })
    const result = await revoke(api, { operation: 'revoke', tokenId: 'a' })
    expect(result).toEqual({
      operation: 'revoke',
      token: expect.objectContaining({ id: 'a' }),
      alreadyRevoked: true,
    })
    // Settled by the client, as it settles a single revoke: nothing left for later.
    expect(api.revokesSent).toEqual([{ tokenId: 'a', options: {} }])
  })

  it('revokes the token and returns the revoked record', async () => {
    const api = new FakeTokenApi([token('a', 'ci', 1)])
    const result = await revoke(api, { operation: 'revoke', tokenId: 'a' })
    expect(api.calls).toEqual(['revoke a'])
    expect(result.token).toMatchObject({ id: 'a', state: 'revoked' })
    expect(result.token).not.toHaveProperty('tokenValue')
  })
})
