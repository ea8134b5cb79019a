// Golden messages of an audit's log: a finding's line, an undated token's warning, a clean run.
// Worded by report/report.ts; its failure: test/unit/operations/audit.test.ts. See test/fixtures/golden.ts.
import type { Outcome } from '../../src/operations/index.js'
import { report } from '../../src/report/report.js'
import { audited, auditTask, done, reportOptions } from '../fixtures/done.js'
import { pinMessages } from '../fixtures/golden.js'
import { recordingRunner } from '../fixtures/runner.js'
import { token } from '../fixtures/token-api.js'

/** The first line an audit's report logs that starts with `start`. */
async function logged(reported: Outcome, start: string) {
  const runner = recordingRunner()
  await report(reported, reportOptions(runner), runner)
  runner.removeTempDir()
  return runner.lines.find((line) => line.startsWith(start))
}

pinMessages('audit', [
  {
    situation: 'an audit finds a token older than the limit: its line',
    message: () =>
      logged(
        done(audited({ findings: [token('old', 'mediator-production', 120)], total: 3 })),
        'info: Older',
      ),
    expected: "info: Older than 90d: gateway token 'mediator-production' (old), 120d old.",
  },
  {
    situation: 'an audit finds a token whose date cannot be read: its warning',
    message: () => {
      const undated = [token('odd', 'mediator-legacy', 1, { createdAt: 'last spring' })]
      return logged(done(audited({ undated, total: 1 })), 'warning:')
    },
    expected:
      'warning: Token \'mediator-legacy\' (odd) has a createdAt that cannot be read ("last spring"): its age is unknown, so this audit cannot tell whether it is older than 90d. Check it on the platform.',
  },
  {
    situation: 'an audit finds nothing',
    message: () => logged(done(audited({ total: 12 }), auditTask({ name: ['ci-*'] })), 'info: No'),
    expected: 'info: No active token matching name is older than 90d (12 tokens checked).',
  },
])
