import { describe, expect, it } from '@jest/globals'
import { report } from '../../../../src/report/report.js'
import {
  createTask,
  created,
  done,
  listed,
  listTask,
  reportOptions,
} from '../../../fixtures/done.js'
import { useTrackedRunners } from '../../../fixtures/runner.js'
import { token as record } from '../../../fixtures/token-api.js'

const recordingRunner = useTrackedRunners()

describe('report', () => {
  it('create: every output, the value only in tokenValue and the env var', async () => {
    const runner = recordingRunner()
    const token = record('id-1', 'ci-deploy', 0, {
      mediatorId: 'm',
      projectId: 'p',
      createdBy: 'u',
    })
    await report(
      done(created(token), createTask({ envName: 'GW_TOKEN' })),
      reportOptions(runner, true),
      runner,
    )

    expect(runner.outputs).toEqual({
      tokenId: 'id-1',
      tokenValue: 'value-id-1',
      reused: 'false',
      tokenFile: '',
      name: 'ci-deploy',
      mediatorId: 'm',
      projectId: 'p',
      state: 'active',
      createdAt: '2026-11-22T00:00:00.000Z',
      token: JSON.stringify({
        id: 'id-1',
        name: 'ci-deploy',
        state: 'active',
        mediatorId: 'm',
        projectId: 'p',
        createdBy: 'u',
        createdAt: '2026-11-22T00:00:00.000Z',
      }),
    })
    expect(runner.env).toEqual({ GW_TOKEN: 'value-id-1' })
    expect(runner.summaries).toHaveLength(1)
    expect(runner.lines.join('\n') + runner.summaries.join('')).not.toContain('value-id-1')
  })

  it('create: no env var without envName', async () => {
    const runner = recordingRunner()
    await report(done(created(record('id-1', 'x', 0))), reportOptions(runner, true), runner)
    expect(runner.env).toEqual({})
  })

  it('revoke: the record outputs with revokedAt and revokedBy, no value', async () => {
    const runner = recordingRunner()
    const revoked = record('id-1', 'x', 2, {
      state: 'revoked',
      tokenValue: undefined,
      revokedAt: 'T',
      revokedBy: 'u-2',
    })
    await report(
      done({ operation: 'revoke', token: revoked, alreadyRevoked: false }),
      reportOptions(runner, true),
      runner,
    )
    expect(runner.outputs).toMatchObject({
      tokenId: 'id-1',
      state: 'revoked',
      revokedAt: 'T',
      revokedBy: 'u-2',
    })
    expect(runner.outputs).not.toHaveProperty('tokenValue')
    expect(runner.lines).toContain("info: Revoked gateway token 'x' (id-1).")
  })

  it('list: tokens without values, and count', async () => {
    const runner = recordingRunner()
    const tokens = [record('a', 'x', 1), record('b', 'y', 2)]
    await report(done(listed(tokens, 7), listTask()), reportOptions(runner), runner)
    expect(JSON.parse(runner.outputs.tokens ?? '')).toEqual([
      { id: 'a', name: 'x', state: 'active', createdAt: tokens[0]?.createdAt },
      { id: 'b', name: 'y', state: 'active', createdAt: tokens[1]?.createdAt },
    ])
    expect(runner.outputs.count).toBe('2')
    expect(runner.outputs.tokens).not.toContain('value-')
    expect(runner.summaries).toEqual([])
  })

  it('keeps log lines on one line whatever the name holds', async () => {
    const runner = recordingRunner()
    const revoked = record('id-1', 'x\n::error::injected', 0, { state: 'revoked' })
    await report(
      done({ operation: 'revoke', token: revoked, alreadyRevoked: false }),
      reportOptions(runner),
      runner,
    )
    expect(runner.lines).toContain("info: Revoked gateway token 'x ::error::injected' (id-1).")
  })

  it('warns, and does not fail, when the summary cannot be written', async () => {
    const runner = recordingRunner()
    runner.writeSummary = () => Promise.reject(new Error('disk full'))
    await report(
      done({ operation: 'revoke', token: record('id-1', 'x', 0), alreadyRevoked: false }),
      reportOptions(runner, true),
      runner,
    )
    expect(runner.lines).toContain('warning: Could not write the job summary: disk full')
  })
})

describe('report: create options', () => {
  it('create with revokeOnExit: writes nothing for the post step (the create noted the token as it came), and says when it goes', async () => {
    const runner = recordingRunner()
    const order: string[] = []
    runner.saveState = (name, value) => order.push(`state ${name}=${value}`)
    runner.setOutput = (name) => order.push(`output ${name}`)
    await report(
      done(created(record('id-1', 'ephemeral', 0)), createTask({ revokeOnExit: 'always' })),
      reportOptions(runner),
      runner,
    )
    expect(order.filter((event) => event.startsWith('state '))).toEqual([])
    expect(order[0]).toBe('output tokenId')
    expect(runner.lines).toContain('info: It will be revoked at the end of the job (revokeOnExit).')
    expect(runner.lines.join('\n')).not.toContain('does not apply')
  })

  it('create without revokeOnExit (or reused): saves no state, and sets reused', async () => {
    const runner = recordingRunner()
    await report(done(created(record('id-1', 'x', 0), true)), reportOptions(runner), runner)
    expect(runner.state).toEqual({})
    expect(runner.outputs.reused).toBe('true')
    expect(runner.lines[0]).toBe(
      "info: Reused the gateway token 'x' (id-1), created 2026-11-22T00:00:00.000Z.",
    )
    // revokeOnExit was not asked for: nothing to say about it.
    expect(runner.lines.join('\n')).not.toContain('revokeOnExit')
  })

  it.each(['always', 'failure'] as const)(
    'create reused with revokeOnExit: %s asked for: says it does not apply, not when it goes, and saves no state',
    async (revokeOnExit) => {
      const runner = recordingRunner()
      await report(
        done(created(record('id-1', 'x', 0), true), createTask({ revokeOnExit })),
        reportOptions(runner),
        runner,
      )
      expect(runner.state).toEqual({})
      expect(runner.lines).toContain(
        'info: revokeOnExit does not apply: the token was reused, not created by this step.',
      )
      expect(runner.lines.join('\n')).not.toContain('It will be revoked')
    },
  )
})

describe('report: a value that cannot be handed on (case 4 of issue 18)', () => {
  const withValue = (value: string, envName?: string) =>
    done(created(record('id-1', 'ci-deploy', 0, { tokenValue: value })), createTask({ envName }))
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => '',
      (error: unknown) => (error as Error).message,
    )

  it('fails before writing anything when the value is over 1 MiB, the limit of one output', async () => {
    const runner = recordingRunner()
    const value = 'v'.repeat(1_500_000)
    // The words of each failure: test/unit/report/report/golden-messages.test.ts.
    const message = await failure(report(withValue(value), reportOptions(runner, true), runner))
    expect(message).toContain('the token value is 1500000 bytes')
    expect(message).toContain('limit of 1 MiB for one output (tokenValue)')
    expect(runner.outputs).toEqual({})
    expect(runner.summaries).toEqual([])
  })

  it('hands on a value of exactly 1 MiB', async () => {
    const runner = recordingRunner()
    await report(withValue('v'.repeat(1_048_576)), reportOptions(runner), runner)
    expect(runner.outputs.tokenValue).toHaveLength(1_048_576)
  })

  it('refuses envName for a value over 32 KiB, pointing at writeTokenFile; takes 32 KiB', async () => {
    const runner = recordingRunner()
    const message = await failure(
      report(withValue('v'.repeat(32 * 1024 + 1), 'GW'), reportOptions(runner), runner),
    )
    expect(message).toContain('the token value is 32769 bytes')
    expect(message).toContain('(envName GW: at most 32768 bytes')
    expect(message).toContain('Use writeTokenFile: true')
    expect(runner.env).toEqual({})
    const fits = recordingRunner()
    await report(withValue('v'.repeat(32 * 1024), 'GW'), reportOptions(fits), fits)
    expect(fits.env.GW).toHaveLength(32 * 1024)
    // Counted in bytes, not characters.
    const euros = recordingRunner()
    expect(
      await failure(report(withValue('€'.repeat(11_000), 'GW'), reportOptions(euros), euros)),
    ).toContain('the token value is 33000 bytes')
  })
})
