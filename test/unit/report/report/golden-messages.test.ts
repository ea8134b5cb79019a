// Golden messages of report.ts: an audit's finding and undated token, a token a cleanup keeps
// or could not revoke, outputs the runner cannot take. Worded by report, with the fixtures
// of its own tests (../wording/golden-messages.test.ts: the sentences it says them with).
// See test/fixtures/golden.ts.
import type { Outcome } from '../../../../src/operations/index.js'
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
import { pinMessages, thrown } from '../../../fixtures/golden.js'
import { recordingRunner } from '../../../fixtures/runner.js'
import { token } from '../../../fixtures/token-api.js'

/** The lines a report logs, its files removed; `<tokensFile>` for the path of the list's file. */
async function lines(reported: Outcome): Promise<string[]> {
  const runner = recordingRunner()
  await report(reported, reportOptions(runner), runner)
  const path = runner.outputs.tokensFile ?? ''
  runner.removeTempDir()
  return runner.lines.map((line) => (path === '' ? line : line.replace(path, '<tokensFile>')))
}
const logged = async (reported: Outcome, start: string) =>
  (await lines(reported)).find((line) => line.startsWith(start))
const withValue = (value: string, envName?: string) =>
  done(created(token('id-1', 'ci-deploy', 0, { tokenValue: value })), createTask({ envName }))
const reportFails = (reported: Outcome) =>
  thrown(() => {
    const runner = recordingRunner()
    return report(reported, reportOptions(runner), runner)
  })

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
])

pinMessages('reports', [
  {
    situation: 'a cleanup keeps a token whose createdAt cannot be read',
    message: () => {
      const odd = token('odd', 'ci', 0, { createdAt: 'yesterday' })
      return logged(done(cleanedUp({ kept: [{ token: odd, why: 'unreadable date' }] })), 'warning:')
    },
    expected:
      'warning: Token \'ci\' (odd) has a createdAt that cannot be read ("yesterday"): its age is unknown, so it is not revoked.',
  },
  {
    situation: 'a cleanup keeps a token whose name is not text',
    message: () => {
      const anon = token('anon', 'x', 50, { name: undefined })
      return logged(
        done(cleanedUp({ kept: [{ token: anon, why: 'unreadable name' }] })),
        'warning:',
      )
    },
    expected:
      'warning: Token (a name that is not text) (anon) is not revoked: its name is not text, so which name it belongs to, and whether it is the newest of that name, cannot be told. Revoke it by its id (operation: revoke) if nothing uses it.',
  },
  {
    situation: 'a cleanup could not revoke a token: its warning',
    message: () => {
      const notRevoked = [
        { token: token('a', 'ci-a', 40), reason: 'POST x answered 403 Forbidden: not yours.' },
      ]
      return logged(done(cleanedUp({ notRevoked })), 'warning:')
    },
    expected:
      "warning: Could not revoke gateway token 'ci-a' (a): POST x answered 403 Forbidden: not yours.",
  },
  {
    situation: 'the tokens output would pass the runner’s 1 MiB limit',
    message: () => {
      const many = Array.from({ length: 12_000 }, (_, i) =>
        token(`id-${i}`, `mediator-gateway-eu-${i}`, i / 1000),
      )
      return logged(done(listed(many)), 'warning:')
    },
    expected:
      "warning: The tokens output would be 1285781 bytes, over the runner's 1 MiB limit for one output: it is left empty; read tokensFile (<tokensFile>) instead.",
  },
  {
    situation: 'a token value over the runner’s 1 MiB limit for one output',
    message: () => reportFails(withValue('v'.repeat(1_500_000))),
    expected:
      "the token value is 1500000 bytes, over the runner's limit of 1 MiB for one output (tokenValue).",
  },
  {
    situation: 'a token value too large for an environment variable (envName)',
    message: () => reportFails(withValue('v'.repeat(32 * 1024 + 1), 'GW')),
    expected:
      'the token value is 32769 bytes, too large for an environment variable (envName GW: at most 32768 bytes, or later steps and the post step cannot start). Use writeTokenFile: true and read the value from the file.',
  },
])
