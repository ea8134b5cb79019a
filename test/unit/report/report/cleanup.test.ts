// report for a cleanup: the revoked records as outputs, a log line each, a warning for each
// token not revoked.
import { describe, expect, it } from '@jest/globals'
import { report } from '../../../../src/report/report.js'
import { cleanedUp, cleanupTask, done, reportOptions } from '../../../fixtures/done.js'
import { useTrackedRunners } from '../../../fixtures/runner.js'
import { token } from '../../../fixtures/token-api.js'

const recordingRunner = useTrackedRunners()

describe('report: cleanup', () => {
  it('cleanup: names each token revoked by someone else meanwhile, and lists it in the outputs', async () => {
    const runner = recordingRunner()
    const theirs = token('theirs', 'ci-t', 40, {
      state: 'revoked',
      tokenValue: undefined,
      revokedAt: '2026-11-22T11:00:00Z',
      revokedBy: 'u-2',
    })
    await report(
      done(
        cleanedUp({
          revoked: [token('mine', 'ci-m', 35, { state: 'revoked', tokenValue: undefined })],
          revokedElsewhere: [theirs],
        }),
        cleanupTask(),
      ),
      reportOptions(runner, true),
      runner,
    )
    // The words of each line: test/unit/report/wording/golden-messages.test.ts.
    const line = runner.lines.find((l) => l.startsWith("info: The gateway token 'ci-t' (theirs)"))
    expect(line).toContain('revoked by someone else meanwhile at 2026-11-22T11:00:00Z by u-2')
    expect(line).toContain('counted as revoked')
    expect(runner.outputs.count).toBe('2')
    expect(JSON.parse(runner.outputs.tokens ?? '')).toEqual([
      expect.objectContaining({ id: 'mine' }),
      expect.objectContaining({ id: 'theirs', revokedBy: 'u-2' }),
    ])
    expect(runner.summaries[0]).toContain(
      '#### Revoked by someone else meanwhile\n\n| Name | Id | Revoked | By |\n| --- | --- | --- | --- |\n| ci-t | <code>theirs</code> | 2026-11-22 11:00 UTC | u-2 |',
    )
  })

  it('cleanup: warns of each token whose revoke may have taken effect, tables it, and counts it in no output', async () => {
    const runner = recordingRunner()
    const unknown = token('maybe', 'ci-x', 40)
    const result = cleanedUp({ unknown: [unknown], stop: { by: 'totalTimeout', totalMs: 5000 } })
    await report(done(result, cleanupTask()), reportOptions(runner, true), runner)
    expect(runner.lines).toContain(
      "warning: The gateway token 'ci-x' (maybe) may have been revoked or not: in flight when totalTimeout ran out, and no list could tell.",
    )
    expect(runner.outputs.count).toBe('0')
    expect(runner.summaries[0]).toContain(
      '#### Revoked or not: unknown\n\n| Name | Id | Why |\n| --- | --- | --- |\n| ci-x | <code>maybe</code> | may have been revoked or not: in flight when totalTimeout ran out, and no list could tell |',
    )
    expect(runner.summaries[0]).toContain('Revoked 0 tokens; 1 may have been revoked or not')
  })

  it("cleanup: a warning when the runner's clock is far from the platform's, an info line without a Date header", async () => {
    const ran = async (ages: { by: 'platform'; skewMs: number } | { by: 'runner' }) => {
      const runner = recordingRunner()
      await report(done(cleanedUp({ ages }), cleanupTask()), reportOptions(runner, true), runner)
      return runner
    }
    const skewed = await ran({ by: 'platform', skewMs: -2 * 86_400_000 })
    expect(skewed.lines[0]).toMatch(/^warning: The runner's clock is 2d ahead of the platform's/)
    expect(skewed.summaries[0]).toContain("The runner's clock is 2d ahead of the platform's")
    const runnerClock = await ran({ by: 'runner' })
    expect(runnerClock.lines[0]).toMatch(/^info: The platform's answers carry no Date header/)
    expect(runnerClock.lines[0]).toContain("the runner's clock")
    const close = await ran({ by: 'platform', skewMs: 1000 })
    expect(close.lines.join('\n')).not.toContain('clock')
  })

  it('cleanup: a warning for each token kept for an unreadable date or name, a line for each kept by keep', async () => {
    const runner = recordingRunner()
    await report(
      done(
        cleanedUp({
          kept: [
            { token: token('odd', 'ci', 0, { createdAt: 'yesterday' }), why: 'unreadable date' },
            { token: token('new', 'ci', 40), why: 'keep' },
            { token: token('anon', 'x', 50, { name: undefined }), why: 'unreadable name' },
          ],
        }),
        cleanupTask({ keep: 1 }),
      ),
      reportOptions(runner),
      runner,
    )
    const [odd, anon, ...more] = runner.lines.filter((line) => line.startsWith('warning:'))
    expect(more).toEqual([])
    expect(odd).toContain(`Token 'ci' (odd) has a createdAt that cannot be read ("yesterday")`)
    expect(odd).toContain('it is not revoked')
    expect(anon).toContain('Token (a name that is not text) (anon) is not revoked')
    expect(anon).toContain('operation: revoke')
    // The one kept as the newest of its name is named; a name in use gets no word of keep: 0.
    const kept = runner.lines.find((line) => line.startsWith('info: Kept'))
    expect(kept).toContain("gateway token 'ci' (new), 40d old")
    expect(kept).toContain('the newest of its name (keep: 1)')
    expect(kept).not.toContain('keep: 0')
    expect(runner.lines.at(-1)).toBe('info: Revoked 0 tokens. Kept 3.')
  })

  it('cleanup: a line for each token kept because keepIds names its id, never a warning', async () => {
    const runner = recordingRunner()
    await report(
      done(
        cleanedUp({
          revoked: [token('old', 'mediator', 90)],
          kept: [{ token: token('rolled-out', 'mediator', 1), why: 'keepIds' }],
        }),
        cleanupTask({ keep: 1, keepIds: ['rolled-out'] }),
      ),
      reportOptions(runner),
      runner,
    )
    expect(runner.lines.filter((line) => line.startsWith('warning:'))).toEqual([])
    expect(runner.lines).toContain(
      "info: Kept gateway token 'mediator' (rolled-out), 1d old: its id is in keepIds.",
    )
    expect(runner.lines.at(-1)).toBe('info: Revoked 1 token. Kept 1.')
  })

  it('cleanup: with keep above 1, a kept token is one of the newest, and a dry run says the same', async () => {
    const runner = recordingRunner()
    await report(
      done(
        cleanedUp({
          revoked: [token('gone', 'ci', 90)],
          kept: [{ token: token('new', 'ci', 40), why: 'keep' }],
        }),
        cleanupTask({ keep: 3, dryRun: true }),
      ),
      reportOptions(runner),
      runner,
    )
    const kept = runner.lines.find((line) => line.startsWith('info: Kept'))
    expect(kept).toContain("gateway token 'ci' (new), 40d old")
    expect(kept).toContain('one of the 3 newest of its name (keep: 3)')
    expect(runner.lines).toContain("info: Would revoke gateway token 'ci' (gone), 90d old.")
  })

  it('cleanup: the revoked records as tokens and count, a log line each', async () => {
    const runner = recordingRunner()
    const revoked = [
      token('a', 'ci-a', 40, { state: 'revoked', tokenValue: undefined }),
      token('b', 'ci-b', 35, { state: 'revoked', tokenValue: undefined }),
    ]
    await report(done(cleanedUp({ revoked }), cleanupTask()), reportOptions(runner, true), runner)
    expect(runner.outputs.count).toBe('2')
    expect((JSON.parse(runner.outputs.tokens ?? '') as { id: string }[]).map((t) => t.id)).toEqual([
      'a',
      'b',
    ])
    expect(runner.lines).toEqual([
      "info: Revoked gateway token 'ci-a' (a), 40d old.",
      "info: Revoked gateway token 'ci-b' (b), 35d old.",
      'info: Revoked 2 tokens. Kept 0.',
    ])
    expect(runner.summaries[0]).toContain('### Gateway token cleanup')
  })

  it('cleanup: a warning for each token it could not revoke, naming it and why', async () => {
    const runner = recordingRunner()
    const notRevoked = [
      { token: token('a', 'ci-a', 40), reason: 'POST x answered 403 Forbidden: not yours.' },
      {
        token: token('b', 'ci-b', 41),
        reason: 'POST y answered 500 Internal Server Error (attempt 4 of 4).',
      },
    ]
    await report(done(cleanedUp({ notRevoked }), cleanupTask()), reportOptions(runner), runner)
    const warnings = runner.lines.filter((line) => line.startsWith('warning:'))
    expect(warnings).toHaveLength(2)
    notRevoked.forEach(({ token: { id, name = '' }, reason }, i) => {
      expect(warnings[i]).toContain(`Could not revoke gateway token '${name}' (${id})`)
      expect(warnings[i]).toContain(reason)
    })
  })

  it('cut short by totalTimeout: outputs what it revoked, and says how many were left', async () => {
    const runner = recordingRunner()
    const revoked = [token('a', 'ci-a', 40, { state: 'revoked', tokenValue: undefined })]
    await report(
      done(
        cleanedUp({
          revoked,
          left: [token('b', 'ci-b', 41), token('c', 'ci-c', 42)],
          stop: { by: 'totalTimeout', totalMs: 60_000 },
        }),
        cleanupTask({ name: ['ci-*'], olderThan: undefined }),
      ),
      reportOptions(runner, true),
      runner,
    )
    expect(runner.outputs.count).toBe('1')
    expect(runner.outputs.tokens).toBe(
      '[{"id":"a","name":"ci-a","state":"revoked","createdAt":"2026-10-13T00:00:00.000Z"}]',
    )
    expect(runner.lines).toEqual([
      "info: Revoked gateway token 'ci-a' (a), 40d old.",
      'info: Revoked 1 token; 2 left when totalTimeout ran out. Kept 0.',
    ])
    expect(runner.summaries[0]).toContain('#### Left active: totalTimeout ran out')
  })
})
