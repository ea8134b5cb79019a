// run, and what a create leaves for the post step: each key of the state saved once, the
// moment it is known (post/state.ts), and a new token nobody has the value of revoked at once.
import { afterEach, describe, expect, it } from '@jest/globals'
import nock from 'nock'
import { readFileSync } from 'node:fs'
import { run } from '../../src/main.js'
import { RunnerFileError } from '../../src/shared/errors.js'
import { FakeClock } from '../fixtures/clock.js'
import { PROJECT_ID } from '../fixtures/inputs.js'
import { API, AUTH, AUTH_PATH, record, TOKEN_ID, useNock } from '../fixtures/nock-platform.js'
import { recordingRunner, type RecordingRunner } from '../fixtures/runner.js'

let runner: RecordingRunner
function given(inputs: Record<string, string>) {
  runner = recordingRunner({
    clientId: 'id',
    clientSecret: 'the-client-secret',
    baseUrl: API,
    authUrl: AUTH,
    ...inputs,
  })
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
      throw new RunnerFileError(
        'GITHUB_OUTPUT',
        new Error('ENOSPC: no space left on device, write'),
      )
    }
    await run(runner)
    // The words: test/unit/golden-messages-operations.test.ts.
    const [failure, ...more] = runner.failures
    expect(more).toEqual([])
    expect(failure).toMatch(/^create failed: could not write GITHUB_OUTPUT: ENOSPC/)
    expect(failure).toContain(`'pr-1' (${TOKEN_ID}) was revoked at once`)
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
    let saves = 0
    const save = runner.saveState.bind(runner)
    // The create is noted (three values), then writing its id fails.
    runner.saveState = (name, value) => {
      if (++saves > 3)
        throw new RunnerFileError('GITHUB_STATE', new Error('Missing file at path: /x'))
      save(name, value)
    }
    await run(runner)
    expect(runner.failures[0]).toMatch(
      /^create failed: could not write GITHUB_STATE: Missing file at path: \/x\. The new gateway token/,
    )
    expect(runner.outputs).toEqual({})
    expect(nock.pendingMocks()).toEqual([])
  })

  it('revokeOnExit: notes the create before it is sent, then the token id', async () => {
    given({ operation: 'create', name: 'pr-1', revokeOnExit: 'true' })
    authOk()
    let stateWhenSent: Record<string, string> = {}
    const before = Date.now()
    nock(API)
      .post('/api/tokens')
      .reply(() => {
        stateWhenSent = { ...runner.state }
        return [201, record({ name: 'pr-1' })]
      })
    await run(runner)
    expect(runner.failures).toEqual([])
    expect(stateWhenSent).toEqual({
      revokeOnExitTokenName: 'pr-1',
      revokeOnExitSince: expect.stringMatching(/^\d+$/),
      revokeOnExitWhen: 'always',
    })
    const since = Number(stateWhenSent.revokeOnExitSince)
    expect(since).toBeGreaterThanOrEqual(before)
    expect(since).toBeLessThanOrEqual(Date.now())
    expect(runner.state).toEqual({ ...stateWhenSent, revokeOnExitTokenId: TOKEN_ID })
  })

  it('revokeOnExit: saves each key once, the id before any output, the time by the step’s clock', async () => {
    given({ operation: 'create', name: 'pr-1', revokeOnExit: 'failure' })
    const { writes, clock } = await createPr1()
    expect(runner.failures).toEqual([])
    // The name is saved once, before the create is sent (no longer again with the id).
    expect(writes.slice(0, 5)).toEqual([
      'state revokeOnExitTokenName=pr-1',
      `state revokeOnExitSince=${clock.time}`,
      'state revokeOnExitWhen=failure',
      `state revokeOnExitTokenId=${TOKEN_ID}`,
      'output tokenId',
    ])
    expect(writes.filter((write) => write.startsWith('state '))).toHaveLength(4)
  })

  it('revokeOnExit and writeTokenFile: the token, then the path of its file, each once', async () => {
    given({ operation: 'create', name: 'pr-1', revokeOnExit: 'true', writeTokenFile: 'true' })
    const { writes, clock } = await createPr1()
    expect(runner.failures).toEqual([])
    const path = runner.outputs.tokenFile ?? ''
    expect(writes.filter((write) => write.startsWith('state '))).toEqual([
      'state revokeOnExitTokenName=pr-1',
      `state revokeOnExitSince=${clock.time}`,
      'state revokeOnExitWhen=always',
      `state revokeOnExitTokenId=${TOKEN_ID}`,
      `state tokenFile=${path}`,
    ])
  })

  it('revokeOnExit: an attempt whose answer was lost, the create sent again, is noted too (through expectedProjectId)', async () => {
    given({
      operation: 'create',
      name: 'pr-1',
      revokeOnExit: 'true',
      expectedProjectId: PROJECT_ID,
    })
    const writes = recordWrites()
    const clock = new FakeClock()
    const made = record({ name: 'pr-1', projectId: PROJECT_ID, createdAt: '2026-11-22T12:00:01Z' })
    authOk()
    // A 500 may have created the token: the list is read before the create is sent again.
    nock(API).post('/api/tokens').reply(500, { error: 'oops' })
    // The list shows no token of that attempt: the create is sent again.
    nock(API).get('/api/tokens').reply(200, [])
    nock(API).post('/api/tokens').reply(201, made)
    // The look for a late token of the lost attempt, a moment later.
    nock(API).get('/api/tokens').reply(200, [made])
    await run(runner, clock)
    expect(runner.failures).toEqual([])
    expect(nock.pendingMocks()).toEqual([])
    expect(writes.filter((write) => write.startsWith('state '))).toEqual([
      'state revokeOnExitTokenName=pr-1',
      `state revokeOnExitSince=${Date.UTC(2026, 10, 22, 12)}`,
      'state revokeOnExitWhen=always',
      'state revokeOnExitLostAnswer=true',
      `state revokeOnExitTokenId=${TOKEN_ID}`,
    ])
  })

  it('revokeOnExit: a create that got no answer leaves its name and time, and no id', async () => {
    given({ operation: 'create', name: 'pr-1', revokeOnExit: 'true', retries: '0' })
    authOk()
    nock(API)
      .post('/api/tokens')
      .replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }))
    await run(runner)
    expect(runner.failures).toEqual([
      `create failed: POST ${API}/api/tokens got no answer: connection reset (ECONNRESET).`,
    ])
    expect(Object.keys(runner.state).sort()).toEqual([
      'revokeOnExitSince',
      'revokeOnExitTokenName',
      'revokeOnExitWhen',
    ])
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
