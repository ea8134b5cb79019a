// run, and what a create leaves for the post step: each key of the state saved once, the
// moment it is known (post/state.ts), and a new token nobody has the value of revoked at once.
import { afterEach, describe, expect, it } from '@jest/globals'
import nock from 'nock'
import { readFileSync } from 'node:fs'
import { run } from '../../../src/main.js'
import { readSavedCreate } from '../../../src/post/state.js'
import { FakeClock } from '../../fixtures/clock.js'
import { PROJECT_ID } from '../../fixtures/inputs.js'
import {
  API,
  AUTH,
  AUTH_PATH,
  connectedRunner,
  record,
  TOKEN_ID,
  useNock,
} from '../../fixtures/nock-platform.js'
import { fileError, type RecordingRunner } from '../../fixtures/runner.js'

let runner: RecordingRunner
function given(inputs: Record<string, string>) {
  runner = connectedRunner(inputs)
}

/** Records each saveState and setOutput call, in order, as well as doing it. */
function recordWrites(): string[] {
  const writes: string[] = []
  const save = runner.saveState.bind(runner)
  runner.saveState = (name, value) => {
    writes.push(`state ${name}=${value}`)
    save(name, value)
  }
  const output = runner.setOutput.bind(runner)
  runner.setOutput = (name, value) => {
    writes.push(`output ${name}`)
    output(name, value)
  }
  return writes
}

useNock()
afterEach(() => {
  // The files a step wrote (tokensFile, tokenFile).
  runner.removeTempDir()
})

describe('run: what create leaves for the post step', () => {
  const authOk = () => nock(AUTH).post(AUTH_PATH).reply(200, { access_token: 'access-token-1' })
  /** A create of pr-1 that the platform answers at once: what the step wrote, and its clock. */
  const createPr1 = async () => {
    const writes = recordWrites()
    const clock = new FakeClock()
    authOk()
    nock(API)
      .post('/api/tokens')
      .reply(201, record({ name: 'pr-1' }))
    await run(runner, clock)
    return { writes, clock }
  }

  it('revokes at once a new token whose value could not be handed on, naming the runner file', async () => {
    given({ operation: 'create', name: 'pr-1' })
    authOk()
    nock(API)
      .post('/api/tokens')
      .reply(201, record({ name: 'pr-1' }))
    nock(API)
      .post(`/api/tokens/${TOKEN_ID}/revoke`)
      .query({ tokenId: TOKEN_ID })
      .reply(200, record({ name: 'pr-1', state: 'revoked', tokenValue: undefined }))
    runner.setOutput = () => {
      throw fileError('GITHUB_OUTPUT', 'ENOSPC: no space left on device, write')
    }
    await run(runner)
    // The words: test/unit/operations/create.test.ts (golden messages: create).
    const [failure, ...more] = runner.failures
    expect(more).toEqual([])
    expect(failure).toMatch(/^create failed: could not write GITHUB_OUTPUT: ENOSPC/)
    expect(failure).toContain(`'pr-1' (${TOKEN_ID}) was not handed on. It was revoked at once.`)
    expect(nock.pendingMocks()).toEqual([])
  })

  it('does the same when the state for the post step cannot be written, before any output', async () => {
    given({ operation: 'create', name: 'pr-1', revokeOnExit: 'true' })
    authOk()
    nock(API)
      .post('/api/tokens')
      .reply(201, record({ name: 'pr-1' }))
    nock(API)
      .post(`/api/tokens/${TOKEN_ID}/revoke`)
      .query(true)
      .reply(200, record({ name: 'pr-1', state: 'revoked', tokenValue: undefined }))
    const save = runner.saveState.bind(runner)
    // The create is saved before it is sent; every later save fails.
    runner.saveState = (name, value) => {
      if (name in runner.state) throw fileError('GITHUB_STATE', 'Missing file at path: /x')
      save(name, value)
    }
    await run(runner)
    expect(runner.failures[0]).toMatch(
      /^create failed: could not write GITHUB_STATE: Missing file at path: \/x\. The value of the new gateway token .* It was revoked at once\.$/,
    )
    expect(runner.outputs).toEqual({})
    expect(nock.pendingMocks()).toEqual([])
  })

  it('sends no create when even its first record cannot be saved', async () => {
    given({ operation: 'create', name: 'pr-1', revokeOnExit: 'true' })
    authOk()
    runner.saveState = () => {
      throw fileError('GITHUB_STATE', 'Missing file at path: /x')
    }
    await run(runner)
    expect(runner.failures).toEqual([
      'create failed: could not write GITHUB_STATE: Missing file at path: /x.',
    ])
    // The authentication was not sent either: the create had not begun.
    expect(nock.pendingMocks()).toHaveLength(1)
  })

  it('revokeOnExit: saves the create before it is sent, then its token id before any output', async () => {
    given({ operation: 'create', name: 'pr-1', revokeOnExit: 'failure' })
    authOk()
    let savedWhenSent: unknown
    nock(API)
      .post('/api/tokens')
      .reply(() => {
        savedWhenSent = readSavedCreate(runner)
        return [201, record({ name: 'pr-1' })]
      })
    const writes = recordWrites()
    const clock = new FakeClock()
    await run(runner, clock)
    expect(runner.failures).toEqual([])
    const create = { name: 'pr-1', sentAt: clock.time, when: 'failure' }
    expect(savedWhenSent).toEqual({ ...create, state: 'not sent' })
    expect(readSavedCreate(runner)).toEqual({
      ...create,
      state: 'created',
      lastInFlightAt: clock.time,
      id: TOKEN_ID,
    })
    // Every save before the first output.
    const firstOutput = writes.indexOf('output tokenId')
    expect(writes.slice(firstOutput).some((write) => write.startsWith('state '))).toBe(false)
  })

  it('revokeOnExit and writeTokenFile: the create, then the path of its file', async () => {
    given({ operation: 'create', name: 'pr-1', revokeOnExit: 'true', writeTokenFile: 'true' })
    const { writes } = await createPr1()
    expect(runner.failures).toEqual([])
    const path = runner.outputs.tokenFile ?? ''
    const saved = writes.filter((write) => write.startsWith('state '))
    expect(saved.at(-1)).toBe(`state tokenFile=${path}`)
    expect(saved.slice(0, -1).every((write) => write.startsWith('state create='))).toBe(true)
  })

  it('revokeOnExit: an attempt whose answer was lost, the create sent again, is saved too (through expectedProjectId)', async () => {
    given({
      operation: 'create',
      name: 'pr-1',
      revokeOnExit: 'true',
      expectedProjectId: PROJECT_ID,
    })
    const clock = new FakeClock()
    const made = record({ name: 'pr-1', projectId: PROJECT_ID, createdAt: '2026-11-22T12:00:01Z' })
    authOk()
    // A 500 may have created the token: the list is read before the create is sent again.
    nock(API).post('/api/tokens').reply(500, { error: 'oops' })
    // The list shows no token of that attempt: the create is sent again.
    nock(API).get('/api/tokens').reply(200, [])
    nock(API).post('/api/tokens').reply(201, made)
    await run(runner, clock)
    expect(runner.failures).toEqual([])
    expect(nock.pendingMocks()).toEqual([])
    expect(readSavedCreate(runner)).toMatchObject({
      id: TOKEN_ID,
      state: 'created',
      lostEarlier: true,
    })
  })

  it('revokeOnExit: a create refused a connection leaves its name and time, not sent, and no id', async () => {
    given({ operation: 'create', name: 'pr-1', revokeOnExit: 'true', retries: '0' })
    authOk()
    nock(API)
      .post('/api/tokens')
      .replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))
    await run(runner)
    expect(runner.failures).toEqual([
      `create failed: POST ${API}/api/tokens got no answer: connection reset (ECONNRESET).`,
    ])
    // nock fails the request before it is written whole ('finish'): nothing may have been
    // made. A reset after the write, against a real server: test/e2e/revoke-on-exit-recovery.test.ts.
    const saved = readSavedCreate(runner)
    expect(saved).toMatchObject({ name: 'pr-1', state: 'not sent' })
    expect(saved).not.toHaveProperty('id')
  })

  it('revokeOnExit: a refused create is saved as refused: the post step sends nothing', async () => {
    given({ operation: 'create', name: 'pr-1', revokeOnExit: 'true' })
    authOk()
    nock(API).post('/api/tokens').reply(422, { error: 'name taken' })
    await run(runner)
    expect(runner.failures[0]).toMatch(/^create failed: .* answered 422/)
    expect(readSavedCreate(runner)).toEqual(expect.objectContaining({ state: 'refused' }))
    expect(readSavedCreate(runner)).not.toHaveProperty('lostEarlier')
  })

  it('revokeOnExit with a reused token: notes nothing, as nothing is created', async () => {
    given({ operation: 'create', name: 'pr-1', revokeOnExit: 'true', ifExists: 'reuse' })
    authOk()
    nock(API)
      .get('/api/tokens')
      .reply(200, [record({ name: 'pr-1' })])
    await run(runner)
    expect(runner.failures).toEqual([])
    expect(runner.outputs.reused).toBe('true')
    expect(runner.state).toEqual({})
  })

  it('without revokeOnExit: notes nothing', async () => {
    given({ operation: 'create', name: 'pr-1' })
    authOk()
    nock(API)
      .post('/api/tokens')
      .reply(201, record({ name: 'pr-1' }))
    await run(runner)
    expect(runner.failures).toEqual([])
    expect(runner.state).toEqual({})
  })

  it('writeTokenFile: the value in the file tokenFile names, which the post step will delete', async () => {
    given({ operation: 'create', name: 'pr-1', writeTokenFile: 'true' })
    authOk()
    nock(API)
      .post('/api/tokens')
      .reply(201, record({ name: 'pr-1', tokenValue: 'eyJ.the.value' }))
    await run(runner)
    expect(runner.failures).toEqual([])
    const path = runner.outputs.tokenFile ?? ''
    expect(readFileSync(path, 'utf8')).toBe('eyJ.the.value')
    expect(runner.state).toEqual({ tokenFile: path })
  })
})
