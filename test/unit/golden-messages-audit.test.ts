// Golden messages of an audit: a finding's line, an undated token's warning, a clean run, and
// the step's failure. Worded by report/wording.ts and report/report.ts. See test/fixtures/golden.ts.
import type { Outcome } from '../../src/operations/index.js'
import { report } from '../../src/report/report.js'
import { stepFailure } from '../../src/report/wording.js'
import { audited, auditTask, done, reportOptions } from '../fixtures/done.js'
import { pinMessages } from '../fixtures/golden.js'
import { recordingRunner } from '../fixtures/runner.js'
import { token } from '../fixtures/token-api.js'

const tokens = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => token(`${prefix}${i}`, `ci-${prefix}${i}`, 120))

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
  {
    situation: 'an audit with findings fails the step, naming five and how many more',
    message: () => {
      const findings = tokens('f', 7)
      const undated = [token('odd', 'mediator-legacy', 1, { createdAt: 'last spring' })]
      return stepFailure(done(audited({ findings, undated, total: 9 })))
    },
    expected:
      "7 active tokens are older than 90d; 1 more cannot be dated. Older: 'ci-f0' (f0), 'ci-f1' (f1), 'ci-f2' (f2), 'ci-f3' (f3), 'ci-f4' (f4). And 2 more: the job summary and the tokensFile output list them. Their createdAt cannot be read: 'mediator-legacy' (odd).",
  },
  {
    situation: 'an audit finds exactly five: all named, no more to say',
    message: () => stepFailure(done(audited({ findings: tokens('f', 5), total: 5 }))),
    expected:
      "5 active tokens are older than 90d. Older: 'ci-f0' (f0), 'ci-f1' (f1), 'ci-f2' (f2), 'ci-f3' (f3), 'ci-f4' (f4).",
  },
  {
    situation: 'an audit finds one token older, none undated',
    message: () => stepFailure(done(audited({ findings: tokens('f', 1), total: 3 }))),
    expected: "1 active token is older than 90d. Older: 'ci-f0' (f0).",
  },
  {
    situation: 'an audit finds only a token it cannot date',
    message: () => {
      const undated = [token('odd', 'mediator-legacy', 1, { createdAt: 'last spring' })]
      return stepFailure(done(audited({ undated, total: 1 })))
    },
    expected:
      "1 active token cannot be dated: this audit cannot tell whether it is older than 90d. Their createdAt cannot be read: 'mediator-legacy' (odd).",
  },
  {
    situation: 'an audit that finds nothing does not fail the step',
    message: () => String(stepFailure(done(audited({ total: 4 })))),
    expected: 'undefined',
  },
])
