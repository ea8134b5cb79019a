// run and a create whose token id was never saved, or one of whose attempts lost its
// answer (revokeOnExit): the post step looks for the token in the list. Requests go to nock.
import { describe, expect, it } from '@jest/globals'
import nock from 'nock'
import { run as runPost } from '../../../../src/post/step.js'
import { FakeClock } from '../../../fixtures/clock.js'
import {
  ACCESS_TOKEN,
  API,
  AUTH,
  AUTH_PATH,
  authOk,
  record,
  TOKEN_ID,
  useNock,
  REVOKE,
  revokeOk,
} from '../../../fixtures/nock-platform.js'
import {
  noteCreate,
  POST_INPUTS as INPUTS,
  type NotedCreate,
} from '../../../fixtures/post-state.js'
import { recordingRunner, type RecordingRunner } from '../../../fixtures/runner.js'

useNock()

describe('run: a create whose token id was never saved (revokeOnExit)', () => {
  const SENT_AT = Date.parse('2026-11-01T10:00:00.000Z')
  const at = (offsetMs: number) => new Date(SENT_AT + offsetMs).toISOString()
  const ID = (n: number) => `123e4567-e89b-42d3-a456-42661417400${n}`
  const revokePath = (id: string) => `/prefix/api/tokens/${id}/revoke`
  const pr7 = (n: number, offsetMs: number, fields: Record<string, unknown> = {}) =>
    record({ id: ID(n), name: 'pr-7', createdAt: at(offsetMs), ...fields })
  const listed = (...records: unknown[]) => nock(API).get('/prefix/api/tokens').reply(200, records)
  /**
   * A runner whose state says a create of 'pr-7' was sent at SENT_AT, and no more; or, with
   * `then`, what the create told after that.
   */
  function sentRunner(then: Partial<NotedCreate> = {}) {
    const runner = recordingRunner(INPUTS)
    noteCreate(runner, { name: 'pr-7', sentAt: SENT_AT, when: 'always', ...then })
    return runner
  }
  const infoAndWarnings = (runner: RecordingRunner) =>
    runner.lines.filter((line) => !line.startsWith('debug:'))
  // The words of each line: test/unit/post/step/golden-messages.test.ts.
  const LOOKING = expect.stringMatching(
    /^info: No answer said what became of this step's create of 'pr-7': .*\(revokeOnExit\)\.$/,
  )
  /** The post step looked for the token, then warned with each of `facts`. */
  function expectWarning(runner: RecordingRunner, ...facts: string[]) {
    const lines = infoAndWarnings(runner)
    expect(lines).toEqual([LOOKING, expect.stringMatching(/^warning: /)])
    for (const fact of facts) expect(lines[1]).toContain(fact)
  }

  it('revokes the one active token of that name created since the create was sent', async () => {
    const runner = sentRunner()
    // The platform's clock is 30 s behind the runner's, and its Date header says so.
    const date = { Date: new Date(Date.now() - 30_000).toUTCString() }
    nock(AUTH).post(AUTH_PATH).reply(200, { access_token: ACCESS_TOKEN, expires_in: 86400 }, date)
    nock(API)
      .get('/prefix/api/tokens')
      .reply(
        200,
        [
          pr7(1, -10 * 60_000), // before the step
          pr7(2, 5_000, { state: 'revoked', tokenValue: undefined }),
          pr7(3, 5_000, { name: 'pr-70' }),
          pr7(4, -30_000), // after the create, by the platform's clock
        ],
        date,
      )
    nock(API)
      .post(revokePath(ID(4)))
      .query({ tokenId: ID(4) })
      .reply(200, record({ id: ID(4), name: 'pr-7', state: 'revoked', tokenValue: undefined }))
    await runPost(runner, new FakeClock(Date.now()))
    expect(nock.pendingMocks()).toEqual([])
    expect(infoAndWarnings(runner)).toEqual([
      LOOKING,
      `info: Revoked gateway token 'pr-7' (${ID(4)}) at the end of the job (revokeOnExit).`,
    ])
    expect(runner.failures).toEqual([])
  })

  it('without a Date header, revokes a token created after the create by the runner’s clock', async () => {
    const runner = sentRunner()
    authOk()
    listed(pr7(1, -10 * 60_000), pr7(2, 1_000))
    nock(API)
      .post(revokePath(ID(2)))
      .query({ tokenId: ID(2) })
      .reply(200, record({ id: ID(2), name: 'pr-7', state: 'revoked', tokenValue: undefined }))
    await runPost(runner, new FakeClock(Date.now()))
    expect(nock.pendingMocks()).toEqual([])
    expect(infoAndWarnings(runner).at(-1)).toBe(
      `info: Revoked gateway token 'pr-7' (${ID(2)}) at the end of the job (revokeOnExit).`,
    )
  })

  it('without a Date header, does not revoke a token made 30 s before the create: it may be another’s', async () => {
    const runner = sentRunner()
    authOk()
    listed(pr7(1, -30_000))
    await runPost(runner, new FakeClock(Date.now()))
    // No revoke was asked for: nock would have refused it as unexpected.
    expect(nock.pendingMocks()).toEqual([])
    expectWarning(
      runner,
      "Did not revoke a token named 'pr-7'",
      `the only candidate, ${ID(1)}`,
      'created 30 s before the create was sent',
      'no Date header',
    )
    expect(runner.failures).toEqual([])
  })

  it('revokes nothing with two candidates, and warns naming both', async () => {
    const runner = sentRunner()
    authOk()
    listed(pr7(1, 1_000), pr7(2, 2_000))
    await runPost(runner, new FakeClock(Date.now()))
    expect(nock.pendingMocks()).toEqual([])
    expectWarning(
      runner,
      "Did not revoke a token named 'pr-7'",
      '2 active tokens of that name',
      `${ID(2)}, ${ID(1)}`,
    )
  })

  it('revokes nothing when only an older token has that name, and warns: a create can land after the last look', async () => {
    const runner = sentRunner()
    authOk()
    listed(pr7(1, -61_000), pr7(2, 5_000, { state: 'revoked', tokenValue: undefined }))
    await runPost(runner, new FakeClock(Date.now()))
    expect(infoAndWarnings(runner)).toEqual([
      LOOKING,
      `warning: Did not revoke a token named 'pr-7' at the end of the job: none was in the list, and a create can land after the last look. An active token named 'pr-7' created after ${at(-60_000)} would be this step's, and nobody has its value: revoke it (operation: revoke, tokenId).`,
    ])
  })

  it('revokes nothing when the only candidate’s createdAt cannot be read, and warns naming it', async () => {
    const runner = sentRunner()
    authOk()
    listed(pr7(1, -61_000), pr7(2, 0, { createdAt: 'yesterday' }))
    await runPost(runner, new FakeClock(Date.now()))
    expect(nock.pendingMocks()).toEqual([])
    expectWarning(
      runner,
      "Did not revoke a token named 'pr-7'",
      `the only candidate, ${ID(2)}`,
      'its createdAt ("yesterday") cannot be read',
    )
  })

  it('warns naming the name and the time when the list fails, after looking again every 2 s while totalTimeout allowed', async () => {
    const runner = sentRunner()
    runner.inputs.totalTimeout = '30'
    authOk()
    nock(API).get('/prefix/api/tokens').times(Infinity).reply(503, { error: 'maintenance' })
    const clock = new FakeClock(Date.now())
    const start = clock.now()
    await runPost(runner, clock)
    expect(runner.failures).toEqual([])
    // Each look is one list (the call loop retries it); no backoff of the search's own.
    expect(new Set(clock.sleeps)).toEqual(new Set([2_000]))
    expect(clock.sleeps.length).toBeGreaterThanOrEqual(13)
    expect(clock.now() - start).toBeLessThanOrEqual(30_000)
    const lines = infoAndWarnings(runner)
    // Each failure but the last, which the warning says, is told with the look after it.
    expect(lines.filter((line) => line.includes('Listing the tokens failed'))).toHaveLength(
      clock.sleeps.length,
    )
    const warning = lines.at(-1)
    expect(warning).toContain("warning: Could not look for the token named 'pr-7'")
    expect(warning).toContain(`GET ${API}/prefix/api/tokens answered 503`)
    expect(warning).toContain('maintenance')
    expect(warning).toContain(`created after ${at(-60_000)}`)
  })

  it('warns naming the token when its revoke fails', async () => {
    const runner = sentRunner()
    authOk()
    listed(pr7(1, 1_000))
    nock(API)
      .post(revokePath(ID(1)))
      .query(true)
      .reply(503, { error: 'maintenance' })
    await runPost(runner, new FakeClock(Date.now()))
    const warning = infoAndWarnings(runner).at(-1)
    expect(warning).toContain(`warning: Could not revoke gateway token 'pr-7' (${ID(1)})`)
    expect(warning).toContain(`POST ${API}${revokePath(ID(1))}?tokenId=${ID(1)} answered 503`)
    expect(warning).toContain(`revoke it with operation: revoke and tokenId: ${ID(1)}`)
  })

  it('revokes by the saved id alone once the create answered, listing nothing', async () => {
    const runner = sentRunner({ id: TOKEN_ID })
    authOk()
    revokeOk()
    await runPost(runner, new FakeClock(Date.now()))
    expect(nock.pendingMocks()).toEqual([])
    expect(infoAndWarnings(runner)).toEqual([
      `info: Revoked gateway token 'pr-7' (${TOKEN_ID}) at the end of the job (revokeOnExit).`,
    ])
  })
  describe('an attempt whose answer was lost, the create sent again', () => {
    /** The main step's state: the create sent again made TOKEN_ID; the first attempt's answer was lost. */
    const resentRunner = () => sentRunner({ lostEarlier: true, id: TOKEN_ID })
    const revokedKnown = () =>
      nock(API)
        .post(REVOKE)
        .query({ tokenId: TOKEN_ID })
        .reply(200, record({ name: 'pr-7', state: 'revoked', tokenValue: undefined }))
    const LOOKING_LATE = expect.stringMatching(
      /^info: An attempt of this step's create of 'pr-7' got no answer.*\(revokeOnExit\)\.$/,
    )

    it('revokes the saved token, then the lost attempt’s once it lands in the list', async () => {
      const runner = resentRunner()
      authOk()
      revokedKnown()
      // The first list has only the token in hand; the lost attempt's lands 2 s later.
      const known = record({ id: TOKEN_ID, name: 'pr-7', createdAt: at(3_000) })
      listed(known)
      listed(known, pr7(5, 1_000))
      nock(API)
        .post(revokePath(ID(5)))
        .query({ tokenId: ID(5) })
        .reply(200, record({ id: ID(5), name: 'pr-7', state: 'revoked', tokenValue: undefined }))
      const clock = new FakeClock(SENT_AT + 5_000)
      await runPost(runner, clock)
      expect(nock.pendingMocks()).toEqual([])
      expect(clock.sleeps).toEqual([2_000])
      const lines = infoAndWarnings(runner)
      expect(lines[0]).toBe(
        `info: Revoked gateway token 'pr-7' (${TOKEN_ID}) at the end of the job (revokeOnExit).`,
      )
      expect(lines[1]).toEqual(LOOKING_LATE)
      expect(lines.at(-1)).toBe(
        `info: Revoked gateway token 'pr-7' (${ID(5)}) at the end of the job (revokeOnExit).`,
      )
      expect(runner.failures).toEqual([])
    })

    it('looks once when the lost attempt can no longer land, and warns that none was found', async () => {
      const runner = resentRunner()
      authOk()
      revokedKnown()
      listed(record({ id: TOKEN_ID, name: 'pr-7', createdAt: at(3_000) }))
      // A minute after the create was sent: it no longer lands, so one list is enough.
      const clock = new FakeClock(SENT_AT + 61_000)
      await runPost(runner, clock)
      expect(nock.pendingMocks()).toEqual([])
      expect(clock.sleeps).toEqual([])
      expect(infoAndWarnings(runner).slice(1)).toEqual([
        LOOKING_LATE,
        expect.stringMatching(
          /^warning: Did not revoke a token named 'pr-7' at the end of the job: none was in the list, and a create can land after the last look\. An active token named 'pr-7' other than \S+ created after /,
        ),
      ])
    })

    it('still looks for the lost attempt’s token when revoking the saved one failed', async () => {
      const runner = resentRunner()
      authOk()
      nock(API).post(REVOKE).query(true).reply(403, { error: 'forbidden' })
      // The list that settles the refusal shows the saved token still active; then the search.
      listed(record({ id: TOKEN_ID, name: 'pr-7', createdAt: at(3_000) }))
      listed(pr7(5, 1_000))
      nock(API)
        .post(revokePath(ID(5)))
        .query({ tokenId: ID(5) })
        .reply(200, record({ id: ID(5), name: 'pr-7', state: 'revoked', tokenValue: undefined }))
      await runPost(runner, new FakeClock(SENT_AT + 61_000))
      expect(nock.pendingMocks()).toEqual([])
      const lines = infoAndWarnings(runner)
      expect(lines[0]).toMatch(/^warning: Could not revoke gateway token 'pr-7' \(/)
      expect(lines.at(-1)).toBe(
        `info: Revoked gateway token 'pr-7' (${ID(5)}) at the end of the job (revokeOnExit).`,
      )
    })

    it('lists nothing when no attempt lost its answer', async () => {
      const runner = sentRunner({ id: TOKEN_ID })
      authOk()
      revokedKnown()
      await runPost(runner, new FakeClock(SENT_AT + 5_000))
      // A list would have been refused by nock as unexpected.
      expect(nock.pendingMocks()).toEqual([])
      expect(infoAndWarnings(runner)).toHaveLength(1)
    })
  })
})
