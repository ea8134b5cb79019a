// run and revokeOnExit: the token the main step saved, revoked at the end of the job, or
// kept when revokeOnExit is failure and the job succeeded. Requests go to nock.
import { describe, expect, it } from '@jest/globals'
import nock from 'nock'
import { run as runPost } from '../../../../src/post/step.js'
import { FakeClock } from '../../../fixtures/clock.js'
import {
  API,
  AUTH,
  AUTH_PATH,
  authOk,
  CLIENT_SECRET,
  record,
  TOKEN_ID,
  useNock,
  REVOKE,
  revokeOk,
} from '../../../fixtures/nock-platform.js'
import { noteCreate, POST_INPUTS as INPUTS } from '../../../fixtures/post-state.js'
import { recordingRunner } from '../../../fixtures/runner.js'

useNock()

/** A runner whose state holds what the main step saved: the token it created. */
function postRunner() {
  const runner = recordingRunner(INPUTS)
  noteCreate(runner, { name: 'ephemeral', id: TOKEN_ID })
  return runner
}

describe('run (revokeOnExit)', () => {
  it('without a create saved, sends nothing; a create with revokeOnExit says so in one line', async () => {
    for (const [inputs, lines] of [
      [{ revokeOnExit: 'true' }, [expect.stringMatching(/^info: This step created no token /)]],
      [{ revokeOnExit: 'failure' }, [expect.stringMatching(/^info: This step created no token /)]],
      // A bad input: the main step failed before anything was saved; one line all the same.
      [{ revokeOnExit: 'yes' }, [expect.stringMatching(/^info: This step created no token /)]],
      [{ revokeOnExit: 'false' }, []],
      [{}, []],
      [{ operation: 'list', revokeOnExit: 'true' }, []],
    ] as const) {
      const runner = recordingRunner({ ...INPUTS, ...inputs })
      await runPost(runner, new FakeClock(Date.now()))
      expect([inputs, runner.lines]).toEqual([inputs, lines])
      expect(runner.masked).toEqual([])
      expect(runner.failures).toEqual([])
    }
  })

  it('after a create that was refused, or never left, sends nothing and says why in one line', async () => {
    for (const [facts, why] of [
      [{ state: 'refused' as const }, 'the platform refused it'],
      [{ state: 'not sent' as const }, 'its request never left the runner whole'],
    ] as const) {
      const runner = recordingRunner(INPUTS)
      noteCreate(runner, { name: 'm1', ...facts })
      await runPost(runner, new FakeClock(Date.now()))
      expect(runner.lines).toEqual([
        expect.stringMatching(
          new RegExp(
            `^info: This step's create of 'm1' made no token, as ${why}.*: nothing to revoke at the end of the job \\(revokeOnExit\\)\\.$`,
          ),
        ),
      ])
      expect(runner.masked).toEqual([])
    }
  })

  it('authenticates anew and revokes the token, masking the client secret first', async () => {
    const runner = postRunner()
    authOk()
    revokeOk()
    await runPost(runner, new FakeClock(Date.now()))
    expect(nock.pendingMocks()).toEqual([])
    expect(runner.events[1]).toBe(`mask ${CLIENT_SECRET}`)
    expect(runner.events[0]).toBe('read clientSecret')
    expect(runner.lines).toContain(
      `info: Revoked gateway token 'ephemeral' (${TOKEN_ID}) at the end of the job (revokeOnExit).`,
    )
    expect(runner.failures).toEqual([])
  })

  it('says so when the token was revoked already', async () => {
    const runner = postRunner()
    authOk()
    nock(API).post(REVOKE).query(true).reply(409, { error: 'already revoked' })
    nock(API)
      .get('/prefix/api/tokens')
      .reply(200, [record({ state: 'revoked', tokenValue: undefined })])
    await runPost(runner, new FakeClock(Date.now()))
    expect(runner.lines).toContain(
      `info: The gateway token 'ephemeral' (${TOKEN_ID}) was already revoked before the end of the job.`,
    )
  })

  it('only warns, naming the token, when it cannot revoke it', async () => {
    const runner = postRunner()
    nock(AUTH)
      .post(AUTH_PATH)
      .reply(503, { error: `down ${CLIENT_SECRET}` })
    await runPost(runner, new FakeClock(Date.now()))
    expect(runner.failures).toEqual([])
    // The words of each line: test/unit/post/step/golden-messages.test.ts.
    const [warning, ...more] = runner.lines.filter((line) => !line.startsWith('debug:'))
    expect(more).toEqual([])
    expect(warning).toContain(`warning: Could not revoke gateway token 'ephemeral' (${TOKEN_ID})`)
    expect(warning).toContain(`authentication failed: POST ${AUTH}${AUTH_PATH} answered 503`)
    expect(warning).toContain('down ***')
    expect(warning).toContain(`revoke it with operation: revoke and tokenId: ${TOKEN_ID}`)
    expect(warning).not.toContain(CLIENT_SECRET)
  })

  it('does not call a token that does not exist "still active"', async () => {
    const runner = postRunner()
    authOk()
    nock(API).post(REVOKE).query(true).reply(404, { error: 'Token not found' })
    nock(API).get('/prefix/api/tokens').reply(200, [])
    await runPost(runner, new FakeClock(Date.now()))
    const warning = runner.lines.find((line) => line.startsWith('warning:'))
    expect(warning).toContain(`no token with id ${TOKEN_ID} exists in the project`)
    expect(warning).not.toContain('still active')
  })
})

describe('run: revokeOnExit: failure revokes only when the job did not succeed (case 7)', () => {
  function failureRunner(jobStatus: string) {
    const runner = recordingRunner({ ...INPUTS, jobStatus })
    noteCreate(runner, { name: 'ephemeral', when: 'failure', id: TOKEN_ID })
    return runner
  }
  const label = `gateway token 'ephemeral' (${TOKEN_ID})`

  const CANCELLED =
    ' If a deploy had already put it in service, that mediator is now cut off, and the older tokens are still active: roll the deploy back or run it again.'

  it.each([
    ['failure', 'failed', ''],
    // A cancel may come after the deploy finished: the line says what that leaves, and what to do.
    ['cancelled', 'was cancelled', CANCELLED],
  ])('revokes when the job status is %s', async (status, how, after) => {
    const runner = failureRunner(status)
    authOk()
    revokeOk()
    await runPost(runner, new FakeClock(Date.now()))
    expect(nock.pendingMocks()).toEqual([])
    expect(runner.lines).toContain(
      `info: The job ${how}: revoking the ${label} (revokeOnExit: failure).${after}`,
    )
  })

  it('keeps the token, sending nothing, when the job succeeded', async () => {
    const runner = failureRunner('success')
    await runPost(runner, new FakeClock(Date.now()))
    expect(runner.lines).toEqual([
      `info: The job succeeded: the ${label} stays active (revokeOnExit: failure).`,
    ])
    expect(runner.events).not.toContain('read clientSecret')
  })

  it.each(['', 'unknown', '${{ job.status }}'])(
    'keeps the token and warns when the job status is not known: %j',
    async (status) => {
      const runner = failureRunner(status)
      await runPost(runner, new FakeClock(Date.now()))
      const [warning, ...more] = runner.lines
      expect(more).toEqual([])
      expect(warning).toContain(`warning: Did not revoke the ${label}`)
      expect(warning).toContain("the job's status is not known")
      expect(warning).toContain(`jobStatus is ${JSON.stringify(status)}`)
    },
  )

  it('gates the search for a lost create the same way, and says where its token would be', async () => {
    const runner = recordingRunner({ ...INPUTS, jobStatus: 'success' })
    noteCreate(runner, { name: 'pr-9', sentAt: Date.UTC(2026, 10, 1), when: 'failure' })
    await runPost(runner, new FakeClock(Date.now()))
    expect(runner.lines).toEqual([
      expect.stringMatching(
        /^warning: The job succeeded: the token named 'pr-9' .*stays active \(revokeOnExit: failure\)\. An active token named 'pr-9' created after 2026-10-31T23:59:00\.000Z would be this step's, and nobody has its value: revoke it/,
      ),
    ])
  })

  it('keeps the token the step handed on, and says where one a lost earlier attempt made would be', async () => {
    const runner = failureRunner('success')
    noteCreate(runner, { name: 'ephemeral', when: 'failure', id: TOKEN_ID, lostEarlier: true })
    await runPost(runner, new FakeClock(Date.now()))
    const [line, ...more] = runner.lines
    expect(more).toEqual([])
    expect(line).toMatch(
      /^warning: The job succeeded: the gateway token 'ephemeral' .* stays active/,
    )
    expect(line).toContain(`An active token named 'ephemeral' other than ${TOKEN_ID} created after`)
    expect(runner.events).not.toContain('read clientSecret')
  })

  it('revokes whatever the job status with revokeOnExit: true', async () => {
    const runner = recordingRunner({ ...INPUTS, jobStatus: 'success' })
    noteCreate(runner, { name: 'ephemeral', when: 'always', id: TOKEN_ID })
    authOk()
    nock(API)
      .post(REVOKE)
      .query(true)
      .reply(200, record({ state: 'revoked', tokenValue: undefined }))
    await runPost(runner, new FakeClock(Date.now()))
    expect(nock.pendingMocks()).toEqual([])
  })
})
