import { afterEach, describe, expect, it } from '@jest/globals'
import { report } from '../../../src/report/report.js'
import { recordingRunner as newRunner, type RecordingRunner } from '../../fixtures/runner.js'
import { token } from '../../fixtures/token-api.js'

// Every runner of this file, so that the files a report writes are removed after each test.
const runners: RecordingRunner[] = []
function recordingRunner(): RecordingRunner {
  const runner = newRunner()
  runners.push(runner)
  return runner
}
afterEach(() => {
  for (const runner of runners.splice(0)) runner.removeTempDir()
})

describe('report', () => {
  it('create: every output, the value only in tokenValue and the env var', async () => {
    const runner = recordingRunner()
    const created = token('id-1', 'ci-deploy', 0, {
      mediatorId: 'm',
      projectId: 'p',
      createdBy: 'u',
    })
    await report(
      {
        operation: 'create',
        token: created,
        envName: 'GW_TOKEN',
        reused: false,
        revokeOnExit: 'never',
        revokeOnExitSkipped: false,
      },
      { summary: true },
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
    await report(
      {
        operation: 'create',
        token: token('id-1', 'x', 0),
        envName: undefined,
        reused: false,
        revokeOnExit: 'never',
        revokeOnExitSkipped: false,
      },
      { summary: true },
      runner,
    )
    expect(runner.env).toEqual({})
  })

  it('revoke: the record outputs with revokedAt and revokedBy, no value', async () => {
    const runner = recordingRunner()
    const revoked = token('id-1', 'x', 2, {
      state: 'revoked',
      tokenValue: undefined,
      revokedAt: 'T',
      revokedBy: 'u-2',
    })
    await report(
      { operation: 'revoke', token: revoked, alreadyRevoked: false },
      { summary: true },
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
    const tokens = [token('a', 'x', 1), token('b', 'y', 2)]
    await report(
      {
        operation: 'list',
        tokens,
        total: 7,
        task: { operation: 'list', name: undefined, state: 'all' },
      },
      { summary: false },
      runner,
    )
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
    const revoked = token('id-1', 'x\n::error::injected', 0, { state: 'revoked' })
    await report(
      { operation: 'revoke', token: revoked, alreadyRevoked: false },
      { summary: false },
      runner,
    )
    expect(runner.lines).toContain("info: Revoked gateway token 'x ::error::injected' (id-1).")
  })

  it('warns, and does not fail, when the summary cannot be written', async () => {
    const runner = recordingRunner()
    runner.writeSummary = () => Promise.reject(new Error('disk full'))
    await report(
      { operation: 'revoke', token: token('id-1', 'x', 0), alreadyRevoked: false },
      { summary: true },
      runner,
    )
    expect(runner.lines).toContain('warning: Could not write the job summary: disk full')
  })
})

describe('report: create options', () => {
  it('create with revokeOnExit: saves the token for the post step before anything else', async () => {
    const runner = recordingRunner()
    const order: string[] = []
    runner.saveState = (name, value) => order.push(`state ${name}=${value}`)
    runner.setOutput = (name) => order.push(`output ${name}`)
    const created = token('id-1', 'ephemeral', 0)
    await report(
      {
        operation: 'create',
        token: created,
        envName: undefined,
        reused: false,
        revokeOnExit: 'always',
        revokeOnExitSkipped: false,
      },
      { summary: false },
      runner,
    )
    expect(order.slice(0, 3)).toEqual([
      'state revokeOnExitTokenId=id-1',
      'state revokeOnExitTokenName=ephemeral',
      'output tokenId',
    ])
  })

  it('create without revokeOnExit (or reused): saves no state, and sets reused', async () => {
    const runner = recordingRunner()
    await report(
      {
        operation: 'create',
        token: token('id-1', 'x', 0),
        envName: undefined,
        reused: true,
        revokeOnExit: 'never',
        revokeOnExitSkipped: false,
      },
      { summary: false },
      runner,
    )
    expect(runner.state).toEqual({})
    expect(runner.outputs.reused).toBe('true')
    expect(runner.lines[0]).toBe(
      "info: Reused the gateway token 'x' (id-1), created 2026-11-22T00:00:00.000Z.",
    )
  })

  it('create reused with revokeOnExit asked for: says it does not apply, and saves no state', async () => {
    const runner = recordingRunner()
    await report(
      {
        operation: 'create',
        token: token('id-1', 'x', 0),
        envName: undefined,
        reused: true,
        revokeOnExit: 'never',
        revokeOnExitSkipped: true,
      },
      { summary: false },
      runner,
    )
    expect(runner.state).toEqual({})
    expect(runner.lines).toContain(
      'info: revokeOnExit does not apply: the token was reused, not created by this step.',
    )
  })
})

describe('report: a value that cannot be handed on (case 4 of issue 18)', () => {
  const created = (value: string, envName?: string) =>
    ({
      operation: 'create',
      token: token('id-1', 'ci-deploy', 0, { tokenValue: value }),
      envName,
      reused: false,
      revokeOnExit: 'never',
      revokeOnExitSkipped: false,
    }) as const
  const failure = (promise: Promise<unknown>) =>
    promise.then(
      () => '',
      (error: unknown) => (error as Error).message,
    )

  it('fails before writing anything when the value is over 1 MiB, the limit of one output', async () => {
    const runner = recordingRunner()
    const value = 'v'.repeat(1_500_000)
    expect(await failure(report(created(value), { summary: true }, runner))).toBe(
      "the token value is 1500000 bytes, over the runner's limit of 1 MiB for one output (tokenValue).",
    )
    expect(runner.outputs).toEqual({})
    expect(runner.summaries).toEqual([])
  })

  it('hands on a value of exactly 1 MiB', async () => {
    const runner = recordingRunner()
    await report(created('v'.repeat(1_048_576)), { summary: false }, runner)
    expect(runner.outputs.tokenValue).toHaveLength(1_048_576)
  })

  it('refuses envName for a value over 32 KiB, pointing at writeTokenFile; takes 32 KiB', async () => {
    const runner = recordingRunner()
    expect(
      await failure(report(created('v'.repeat(32 * 1024 + 1), 'GW'), { summary: false }, runner)),
    ).toBe(
      'the token value is 32769 bytes, too large for an environment variable (envName GW: at most 32768 bytes, or later steps and the post step cannot start). Use writeTokenFile: true and read the value from the file.',
    )
    expect(runner.env).toEqual({})
    const fits = recordingRunner()
    await report(created('v'.repeat(32 * 1024), 'GW'), { summary: false }, fits)
    expect(fits.env.GW).toHaveLength(32 * 1024)
    // Counted in bytes, not characters.
    expect(
      await failure(
        report(created('€'.repeat(11_000), 'GW'), { summary: false }, recordingRunner()),
      ),
    ).toContain('the token value is 33000 bytes')
  })
})
