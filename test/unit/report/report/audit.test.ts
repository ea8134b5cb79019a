// report for an audit: the findings as list outputs, a line each, a warning for each undated
// token (../summary/word-for-word.test.ts: its job summary).
import { describe, expect, it } from '@jest/globals'
import { report } from '../../../../src/report/report.js'
import { audited, done, reportOptions } from '../../../fixtures/done.js'
import { useTrackedRunners } from '../../../fixtures/runner.js'
import { token } from '../../../fixtures/token-api.js'

const recordingRunner = useTrackedRunners()

describe('report: audit', () => {
  const old = token('old', 'mediator-production', 120, { createdByEmail: 'ops@example.com' })
  const odd = token('odd', 'mediator-legacy', 0, { createdAt: 'last spring' })

  it('sets count, tokens and tokensFile to the findings, and names each', async () => {
    const runner = recordingRunner()
    await report(
      done(audited({ findings: [old], undated: [odd], total: 5 })),
      reportOptions(runner),
      runner,
    )
    expect(runner.outputs.count).toBe('1')
    expect(JSON.parse(runner.outputs.tokens ?? '')).toEqual([
      expect.objectContaining({ id: 'old', name: 'mediator-production' }),
    ])
    expect(runner.outputs.tokens).not.toContain('value-old')
    expect(runner.outputs.tokensFile).toMatch(/tokens-.*\.json$/)
    expect(runner.lines).toEqual([
      "info: Older than 90d: gateway token 'mediator-production' (old), 120d old.",
      expect.stringMatching(/^warning: Token 'mediator-legacy' \(odd\) has a createdAt that/),
      'info: 1 active token is older than 90d; 1 more cannot be dated.',
    ])
  })

  it('cuts an unreadable date of any length short in its warning', async () => {
    const runner = recordingRunner()
    const long = token('long', 'ci', 0, { createdAt: `x${'y'.repeat(100_000)}` })
    await report(done(audited({ undated: [long], total: 1 })), reportOptions(runner), runner)
    const [warning] = runner.lines.filter((line) => line.startsWith('warning:'))
    expect(warning).toContain('("xyyy')
    expect(warning?.length).toBeLessThan(400)
  })

  it('a clean audit: count 0, an empty list, and a line that says so', async () => {
    const runner = recordingRunner()
    await report(done(audited({ total: 3 })), reportOptions(runner), runner)
    expect(runner.outputs).toMatchObject({ count: '0', tokens: '[]' })
    expect(runner.lines).toEqual(['info: No active token is older than 90d (3 tokens checked).'])
  })
})
