// report word for word: every log line and output of list, revoke and create as a
// workflow author reads them, fields the platform left out written empty
// (../summary/word-for-word.test.ts: their summaries).
import { describe, expect, it } from '@jest/globals'
import { report } from '../../../../src/report/report.js'
import {
  audited,
  cleanedUp,
  created,
  createTask,
  done,
  listed,
  reportOptions,
} from '../../../fixtures/done.js'
import { useTrackedRunners } from '../../../fixtures/runner.js'
import { token } from '../../../fixtures/token-api.js'

const recordingRunner = useTrackedRunners()
const bare = token('id-1', 'ci', 2, { mediatorId: undefined, projectId: undefined })
const revoked = (fields = {}) => ({ ...bare, state: 'revoked' as const, ...fields })

async function reported(outcome: Parameters<typeof report>[0]) {
  const runner = recordingRunner()
  await report(outcome, reportOptions(runner), runner)
  return runner
}

describe('report, word for word', () => {
  it('list: one line, how many of how many match', async () => {
    const runner = await reported(done(listed([bare], 3)))
    expect(runner.lines).toEqual(['info: 1 of 3 tokens match.'])
  })

  it('revoke: a line, and every record output, empty where the platform sent no field', async () => {
    const runner = await reported(
      done({ operation: 'revoke', token: revoked(), alreadyRevoked: false }),
    )
    expect(runner.lines).toEqual(["info: Revoked gateway token 'ci' (id-1)."])
    expect(runner.outputs).toMatchObject({ mediatorId: '', projectId: '', revokedAt: '' })
    expect(runner.outputs.revokedBy).toBe('')
  })

  it('revoke of a token revoked before: a notice, with when if the platform said', async () => {
    const at = '2026-11-21T10:00:00Z'
    const before = await reported(
      done({ operation: 'revoke', token: revoked({ revokedAt: at }), alreadyRevoked: true }),
    )
    expect(before.lines).toEqual([
      `notice: The gateway token 'ci' (id-1) was already revoked at ${at}; nothing to do.`,
    ])
    const unknown = await reported(
      done({ operation: 'revoke', token: revoked(), alreadyRevoked: true }),
    )
    expect(unknown.lines).toEqual([
      "notice: The gateway token 'ci' (id-1) was already revoked; nothing to do.",
    ])
  })

  it('create: the line, and where the value went', async () => {
    const runner = await reported(
      done(created(bare), createTask({ name: 'ci', envName: 'GW_TOKEN' })),
    )
    expect(runner.lines).toEqual([
      "info: Created gateway token 'ci' (id-1).",
      'info: The token value is in the environment variable GW_TOKEN for later steps (masked).',
    ])
    expect(runner.outputs.mediatorId).toBe('')
  })

  it('a reused token whose createdAt is missing says so', async () => {
    const runner = await reported(
      done(
        created(token('id-1', 'ci', 2, { createdAt: undefined }), true),
        createTask({ name: 'ci' }),
      ),
    )
    expect(runner.lines).toEqual([
      "info: Reused the gateway token 'ci' (id-1), created at an unknown time.",
    ])
  })

  it('cleanup: a revoked token whose age is unknown is named without one', async () => {
    const odd = revoked({ createdAt: 'soon' })
    const runner = await reported(done(cleanedUp({ revoked: [odd] })))
    expect(runner.lines).toContain("info: Revoked gateway token 'ci' (id-1).")
  })

  it('audit: ages on the runner’s clock are said, as for a cleanup', async () => {
    const runner = await reported(done(audited({ ages: { by: 'runner' }, total: 0 })))
    expect(runner.lines[0]).toBe(
      "info: The platform's answers carry no Date header: ages are measured on the runner's clock.",
    )
  })
})
