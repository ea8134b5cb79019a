// run, the main step: inputs, failures and cancels (post-state.test.ts: what a create
// leaves for the post step).
import { afterEach, describe, expect, it } from '@jest/globals'
import nock from 'nock'
import { failureMessage, run } from '../../../src/main.js'
import {
  API,
  AUTH,
  AUTH_PATH,
  connectedRunner,
  record,
  useNock,
} from '../../fixtures/nock-platform.js'
import { recordingRunner, type RecordingRunner } from '../../fixtures/runner.js'

let runner: RecordingRunner
function given(inputs: Record<string, string>) {
  runner = connectedRunner(inputs)
}

useNock()
afterEach(() => {
  // The files a step wrote (tokensFile, tokenFile).
  runner.removeTempDir()
})

describe('run', () => {
  it('masks clientSecret before reading any other input', async () => {
    given({})
    await run(runner)
    expect(runner.events.slice(0, 3)).toEqual([
      'read clientSecret',
      'mask the-client-secret',
      'read operation',
    ])
    expect(runner.failures).toEqual([
      "Input 'operation' is required: one of create, list, revoke, cleanup, audit.",
    ])
  })

  it('fails on a bad input with its message alone, sending nothing', async () => {
    given({ operation: 'revoke', tokenId: 'nope' })
    await run(runner)
    expect(runner.failures).toEqual([expect.stringMatching(/^Input 'tokenId' must be a UUID/)])
    expect(nock.pendingMocks()).toEqual([])
  })

  it('scrubs the client secret from an input error that quotes it (pasted into the wrong input)', async () => {
    given({ operation: 'revoke', tokenId: 'the-client-secret' })
    await run(runner)
    expect(runner.failures).toEqual([
      'Input \'tokenId\' must be a UUID like 123e4567-e89b-42d3-a456-426614174000; got "***".',
    ])
  })

  it('prefixes a platform failure with the operation, and scrubs secrets', async () => {
    given({ operation: 'list' })
    nock(AUTH).post(AUTH_PATH).reply(401, { error: 'bad secret the-client-secret' })
    await run(runner)
    // The words of each failure: the golden messages of the module that words it (this
    // one: test/unit/platform/client/golden-messages.test.ts).
    const [failure, ...more] = runner.failures
    expect(more).toEqual([])
    expect(failure).toMatch(/^list failed: authentication was refused: /)
    expect(failure).toContain(`POST ${AUTH}${AUTH_PATH} answered 401`)
    expect(failure).toContain('bad secret ***')
    expect(failure).not.toContain('the-client-secret')
  })

  it('reports a bug as unexpected, with its stack in debug only', async () => {
    given({ operation: 'list' })
    nock(AUTH).post(AUTH_PATH).reply(200, { access_token: 'access-token-1' })
    nock(API).get('/api/tokens').reply(200, [])
    runner.setOutput = () => {
      throw new TypeError('boom')
    }
    await run(runner)
    expect(runner.failures).toEqual(['list failed unexpectedly: boom'])
    const stack = runner.lines.find((line) => line.startsWith('debug: TypeError'))
    expect(stack).toMatch(/^debug: TypeError: boom\n\s+at /)
    // Not in the failure itself, which the workflow author reads.
    expect(runner.failures[0]).not.toMatch(/\bat /)
  })

  it('returns a failure whatever was thrown, undefined too: a caller never reads it as done', async () => {
    given({ operation: 'list' })
    nock(AUTH).post(AUTH_PATH).reply(200, { access_token: 'access-token-1' })
    nock(API).get('/api/tokens').reply(200, [])
    runner.setOutput = () => {
      // eslint-disable-next-line @typescript-eslint/only-throw-error -- what a bug may throw
      throw undefined
    }
    expect(await run(runner)).toEqual({ failed: true, error: undefined })
    expect(runner.failures).toEqual(['list failed unexpectedly: undefined'])
  })

  it('warns about an ignored input and runs the operation, writing outputs', async () => {
    given({ operation: 'list', tokenId: '123e4567-e89b-42d3-a456-426614174000' })
    nock(AUTH).post(AUTH_PATH).reply(200, { access_token: 'access-token-1' })
    nock(API).get('/api/tokens').reply(200, [])
    await run(runner)
    expect(runner.lines).toContain(
      "warning: Input 'tokenId' is not used by operation list; it is ignored.",
    )
    expect(runner.outputs.count).toBe('0')
    expect(runner.failures).toEqual([])
  })
})

describe('failureMessage', () => {
  it('cannot throw: an error that cannot be read, or a scrub that fails, still gives one line', () => {
    const hostile = {
      get message(): string {
        throw new Error('no message for you')
      },
    }
    const secrets = {
      add: () => undefined,
      addFrom: () => undefined,
      scrub: (text: string) => text,
    }
    const runner = recordingRunner()
    expect(failureMessage(hostile, 'list', secrets, runner)).toBe(
      'list failed unexpectedly, with an error that could not be shown.',
    )
    const failing = {
      ...secrets,
      scrub: () => {
        throw new RangeError('Set maximum size exceeded')
      },
    }
    expect(failureMessage(new Error('x'), undefined, failing, runner)).toBe(
      'The action failed unexpectedly, with an error that could not be shown.',
    )
  })
})

describe('run: a cancelled step reports what it did (issue 18, case 3)', () => {
  const ID = (n: number) => `123e4567-e89b-42d3-a456-42661417400${n}`
  const old = (n: number) =>
    record({ id: ID(n), name: `ci-${n}`, createdAt: '2026-01-01T00:00:00Z', tokenValue: undefined })

  it('a cleanup cancelled after its first revoke: that one reported, the rest left, the step failed', async () => {
    given({ operation: 'cleanup', name: 'ci-*', keep: '0', concurrency: '1' })
    nock(AUTH).post(AUTH_PATH).reply(200, { access_token: 'access-token-1' })
    nock(API)
      .get('/api/tokens')
      .reply(200, [old(1), old(2), old(3)])
    nock(API)
      .post(/\/revoke$/)
      .query(true)
      .reply(200, (uri) => {
        // The runner cancels the step while this revoke is in flight.
        runner.cancel('SIGINT')
        const id = /tokens\/([^/]+)\/revoke/.exec(uri)?.[1] ?? ''
        return { ...old(1), id, name: 'x', state: 'revoked' }
      })
    await run(runner)
    expect(runner.outputs.count).toBe('1')
    // The log names the token revoked before the cancel.
    expect(
      runner.lines.some((l) => l.startsWith(`info: Revoked gateway token 'x' (${ID(1)})`)),
    ).toBe(true)
    expect(runner.summaries.join('')).toContain('#### Left active: the step was cancelled')
    expect(runner.failures).toEqual([
      expect.stringMatching(
        /^cleanup failed: The step was cancelled \(SIGINT\): 1 token revoked, 2 left active;/,
      ),
    ])
    expect(runner.cancelListeners).toBe(0)
    expect(nock.pendingMocks()).toEqual([])
  })

  it('listens for a cancel only while the operation runs', async () => {
    given({ operation: 'list' })
    nock(AUTH).post(AUTH_PATH).reply(200, { access_token: 'access-token-1' })
    let listening = 0
    nock(API)
      .get('/api/tokens')
      .reply(200, () => {
        listening = runner.cancelListeners
        return []
      })
    await run(runner)
    expect(listening).toBe(1)
    expect(runner.cancelListeners).toBe(0)
    expect(runner.failures).toEqual([])
  })
})
