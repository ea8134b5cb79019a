// The audit: planAudit's findings from the list alone, the operation on the platform's clock, and its failure rule (it fails closed), word for word.
import { describe, expect, it } from '@jest/globals'
import type { AuditTask } from '../../../src/inputs/read.js'
import { audit, auditFailure, planAudit } from '../../../src/operations/audit.js'
import { FakeClock } from '../../fixtures/clock.js'
import { audited, auditTask, done, reportOptions } from '../../fixtures/done.js'
import { pinMessages } from '../../fixtures/golden.js'
import { FakeTokenApi, token } from '../../fixtures/token-api.js'
import type { Outcome } from '../../../src/operations/index.js'
import { report } from '../../../src/report/report.js'
import { recordingRunner } from '../../fixtures/runner.js'

const NOW = Date.UTC(2026, 10, 22)
const days = (n: number) => ({ text: `${n}d`, ms: n * 86_400_000 })
const ids = (tokens: { id: string }[]) => tokens.map((t) => t.id)
const tokens = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => token(`${prefix}${i}`, `ci-${prefix}${i}`, 120))
/** Tokens whose createdAt cannot be read. */
const undatedTokens = (n: number) =>
  tokens('u', n).map((undated) => ({ ...undated, createdAt: 'last spring' }))
/** An audit's result beside the task it ran (olderThan 90d), as auditFailure reads them. */
const outcome = (result: ReturnType<typeof audited>) => [result, auditTask()] as const

describe('planAudit', () => {
  const tokens = [
    token('only', 'mediator-production', 120),
    token('young', 'mediator-staging', 10),
    token('edge', 'mediator-edge', 90),
    token('ci-new', 'ci-7', 95),
    token('ci-old', 'ci-7', 300),
    token('gone', 'mediator-old', 400, { state: 'revoked' }),
    token('odd', 'mediator-legacy', 0, { createdAt: 'last spring' }),
    token('anon', 'x', 200, { name: undefined }),
  ]

  it('finds every active token older than the limit, the newest and only of its name too', () => {
    const { findings, undated } = planAudit(tokens, { name: undefined, olderThan: days(90) }, NOW)
    // Exactly 90 days is not older; revoked tokens are not findings; a nameless one is.
    expect(ids(findings)).toEqual(['ci-new', 'only', 'anon', 'ci-old'])
    expect(ids(undated)).toEqual(['odd'])
  })

  it('takes only the names its filters match, look-alikes left out', () => {
    const name = ['mediator-production', 'ci-*', 'mediator-legacy']
    const { findings, undated } = planAudit(
      [...tokens, token('alike', 'mediator-production-2', 200)],
      { name, olderThan: days(90) },
      NOW,
    )
    expect(ids(findings)).toEqual(['ci-new', 'only', 'ci-old'])
    expect(ids(undated)).toEqual(['odd'])
  })
})

describe('audit', () => {
  it('lists once, measures ages on the platform’s clock, and never revokes', async () => {
    const api = new FakeTokenApi([token('old', 'ci', 100), token('new', 'ci', 1)])
    // The runner's clock is 20 days behind the platform's: on it, the old token is 80 days old.
    api.platformOffsetMs = 20 * 86_400_000
    const clock = new FakeClock(Date.UTC(2026, 10, 2))
    const task: AuditTask = { operation: 'audit', name: ['ci'], olderThan: days(90) }
    expect(await audit(api, task, clock)).toEqual({
      operation: 'audit',
      findings: [expect.objectContaining({ id: 'old' })],
      undated: [],
      total: 2,
      now: NOW,
      ages: { by: 'platform', skewMs: 20 * 86_400_000 },
    })
    expect(api.calls).toEqual(['list'])
  })

  it('without a Date header, measures ages on the runner’s clock, and says so', async () => {
    const api = new FakeTokenApi([token('old', 'ci', 100)])
    api.platformOffsetMs = undefined
    const result = await audit(api, auditTask(), new FakeClock(NOW))
    expect(result).toMatchObject({ now: NOW, ages: { by: 'runner' } })
  })
})

pinMessages('the audit’s failure (auditFailure)', [
  {
    situation: 'an audit with findings fails the step, naming five and how many more',
    message: () => {
      const findings = tokens('f', 7)
      const undated = [token('odd', 'mediator-legacy', 1, { createdAt: 'last spring' })]
      return auditFailure(...outcome(audited({ findings, undated, total: 9 })))
    },
    expected:
      "7 active tokens are older than 90d; 1 more cannot be dated. Older: 'ci-f0' (f0), 'ci-f1' (f1), 'ci-f2' (f2), 'ci-f3' (f3), 'ci-f4' (f4). And 2 more: the job summary and the tokensFile output list them. Their createdAt cannot be read: 'mediator-legacy' (odd).",
  },
  {
    situation: 'an audit finds exactly five: all named, no more to say',
    message: () => auditFailure(...outcome(audited({ findings: tokens('f', 5), total: 5 }))),
    expected:
      "5 active tokens are older than 90d. Older: 'ci-f0' (f0), 'ci-f1' (f1), 'ci-f2' (f2), 'ci-f3' (f3), 'ci-f4' (f4).",
  },
  {
    situation: 'an audit finds one token older, none undated',
    message: () => auditFailure(...outcome(audited({ findings: tokens('f', 1), total: 3 }))),
    expected: "1 active token is older than 90d. Older: 'ci-f0' (f0).",
  },
  {
    situation: 'an audit finds only a token it cannot date',
    message: () => {
      const undated = [token('odd', 'mediator-legacy', 1, { createdAt: 'last spring' })]
      return auditFailure(...outcome(audited({ undated, total: 1 })))
    },
    expected:
      "1 active token cannot be dated: this audit cannot tell whether it is older than 90d. Their createdAt cannot be read: 'mediator-legacy' (odd).",
  },
  {
    situation: 'an audit finds only six tokens it cannot date: five named, each with its warning',
    message: () => auditFailure(...outcome(audited({ undated: undatedTokens(6), total: 6 }))),
    expected:
      "6 active tokens cannot be dated: this audit cannot tell whether they are older than 90d. Their createdAt cannot be read: 'ci-u0' (u0), 'ci-u1' (u1), 'ci-u2' (u2), 'ci-u3' (u3), 'ci-u4' (u4). And 1 more: each has a warning above.",
  },
  {
    situation: 'an audit that finds nothing does not fail the step',
    message: () => String(auditFailure(...outcome(audited({ total: 4 })))),
    expected: 'undefined',
  },
])

/** The first line an audit's report logs that starts with `start`. */
async function logged(reported: Outcome, start: string) {
  const runner = recordingRunner()
  await report(reported, reportOptions(runner), runner)
  runner.removeTempDir()
  return runner.lines.find((line) => line.startsWith(start))
}

pinMessages('the audit’s last line', [
  {
    situation: 'an audit finds nothing',
    message: () => logged(done(audited({ total: 12 }), auditTask({ name: ['ci-*'] })), 'info: No'),
    expected: 'info: No active token matching name is older than 90d (12 tokens checked).',
  },
])
