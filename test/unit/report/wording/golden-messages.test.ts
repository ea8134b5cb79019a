// Golden messages of wording.ts: why a cleanup fails the step (cut short, or tokens not
// revoked), whose clock measured the ages, a token revoked by someone else, a token kept,
// when a new token goes. Worded by its functions alone, or by report with the fixtures of
// its own tests. See test/fixtures/golden.ts.
import type { Outcome } from '../../../../src/operations/index.js'
import { report } from '../../../../src/report/report.js'
import {
  ageClockNote,
  cleanupFailure,
  revokeOnExitNote,
  stepFailure,
} from '../../../../src/report/wording.js'
import { ActionError } from '../../../../src/shared/errors.js'
import { cleanedUp, cleanupTask, done, reportOptions } from '../../../fixtures/done.js'
import { failedStep, pinMessages } from '../../../fixtures/golden.js'
import { recordingRunner } from '../../../fixtures/runner.js'
import { token } from '../../../fixtures/token-api.js'

const tokens = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => token(`${prefix}${i}`, `ci-${prefix}${i}`, 40))
const revoked = (prefix: string, n: number) =>
  tokens(prefix, n).map((t) => ({ ...t, state: 'revoked' as const }))
const ID = '123e4567-e89b-42d3-a456-426614174002'

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
/** A cleanup's failure, as main.ts fails the step with it. */
const cleanupFailed = (reported: Outcome) =>
  failedStep('cleanup', () => {
    throw new ActionError(stepFailure(reported) ?? 'no failure')
  })

pinMessages('reports', [
  {
    situation: 'totalTimeout cut a cleanup short',
    message: () =>
      stepFailure(
        done(
          cleanedUp({
            revoked: tokens('r', 3),
            left: tokens('l', 7),
            stop: { by: 'totalTimeout', totalMs: 60_000 },
          }),
        ),
      ),
    expected:
      'totalTimeout (60 s) ran out: 3 tokens revoked, 7 left active; run the cleanup again to revoke them.',
  },
  {
    situation: 'totalTimeout cut a cleanup short after one token',
    message: () => stepFailure(done(cleanedUp({ revoked: tokens('r', 1), left: tokens('l', 1) }))),
    expected:
      'totalTimeout (900 s) ran out: 1 token revoked, 1 left active; run the cleanup again to revoke them.',
  },
  {
    situation: 'totalTimeout cut a cleanup short before any token',
    message: () => stepFailure(done(cleanedUp({ left: tokens('l', 2) }))),
    expected:
      'totalTimeout (900 s) ran out: 0 tokens revoked, 2 left active; run the cleanup again to revoke them.',
  },
  {
    situation: 'a cancel cut a cleanup short',
    message: () =>
      stepFailure(
        done(
          cleanedUp({
            revoked: tokens('r', 5),
            left: tokens('l', 15),
            stop: { by: 'cancel', signal: 'SIGINT' },
          }),
        ),
      ),
    expected:
      'The step was cancelled (SIGINT): 5 tokens revoked, 15 left active; run the cleanup again to revoke them.',
  },
  {
    situation: 'the step fails for a cleanup a cancel cut short',
    message: () =>
      cleanupFailed(
        done(
          cleanedUp({
            revoked: tokens('r', 1),
            left: tokens('l', 2),
            stop: { by: 'cancel', signal: 'SIGINT' },
          }),
        ),
      ),
    expected:
      'cleanup failed: The step was cancelled (SIGINT): 1 token revoked, 2 left active; run the cleanup again to revoke them.',
  },
  {
    situation: 'a cleanup could not revoke two tokens',
    message: () => {
      const notRevoked = tokens('n', 2).map((t) => ({
        token: t,
        reason: `answered 403 for ${t.id}.`,
      }))
      return stepFailure(done(cleanedUp({ revoked: tokens('r', 1), notRevoked })))
    },
    expected:
      "2 of 3 tokens were not revoked (the other 1 was): 'ci-n0' (n0): answered 403 for n0. 'ci-n1' (n1): answered 403 for n1.",
  },
  {
    situation: 'the step fails for a cleanup that could not revoke one token of six',
    message: () => {
      const reason = `POST /revoke?tokenId=${ID} answered 403 Forbidden: not yours.`
      const stuck = token(ID, 'ci-2', 42)
      return cleanupFailed(
        done(cleanedUp({ revoked: revoked('r', 5), notRevoked: [{ token: stuck, reason }] })),
      )
    },
    expected: `cleanup failed: 1 of 6 tokens was not revoked (the other 5 were): 'ci-2' (${ID}): POST /revoke?tokenId=${ID} answered 403 Forbidden: not yours.`,
  },
  {
    situation: 'totalTimeout cut a cleanup short, and it could not revoke a token',
    message: () =>
      stepFailure(
        done(
          cleanedUp({
            revoked: tokens('r', 1),
            notRevoked: [{ token: token('n0', 'ci-n0', 40), reason: 'denied.' }],
            left: tokens('l', 2),
          }),
        ),
      ),
    expected:
      "totalTimeout (900 s) ran out: 1 token revoked, 2 left active; run the cleanup again to revoke them. 1 of 2 tokens was not revoked (the other 1 was): 'ci-n0' (n0): denied.",
  },
  {
    situation: 'a cleanup could not revoke more tokens than the failure names',
    message: () => {
      const notRevoked = Array.from({ length: 7 }, (_, i) => ({
        token: token(`n${i}`, `ci-n${i}`, 40),
        reason: `answered 403 for n${i}.`,
      }))
      return cleanupFailure(cleanedUp({ notRevoked }))
    },
    expected:
      "7 of 7 tokens were not revoked (the other 0 were): 'ci-n0' (n0): answered 403 for n0. 'ci-n1' (n1): answered 403 for n1. 'ci-n2' (n2): answered 403 for n2. 'ci-n3' (n3): answered 403 for n3. 'ci-n4' (n4): answered 403 for n4. And 2 more: each has a warning above, and the job summary lists them.",
  },
  {
    situation: "the runner's clock is 6 minutes behind the platform's",
    message: () => ageClockNote({ ages: { by: 'platform', skewMs: 6 * 60_000 } }),
    expected:
      "The runner's clock is 6m behind the platform's (by the Date header of its list answer): ages are measured on the platform's clock.",
  },
  {
    situation: "the runner's clock is 2 days ahead of the platform's",
    message: () => ageClockNote({ ages: { by: 'platform', skewMs: -2 * 86_400_000 } }),
    expected:
      "The runner's clock is 2d ahead of the platform's (by the Date header of its list answer): ages are measured on the platform's clock.",
  },
  {
    situation: 'no Date header: ages on the runner’s clock',
    message: () => logged(done(cleanedUp({ ages: { by: 'runner' } })), 'info: The platform'),
    expected:
      "info: The platform's answers carry no Date header: ages are measured on the runner's clock.",
  },
  {
    situation: 'a token revoked by someone else while the cleanup ran',
    message: () => {
      const fields = { revokedAt: '2026-11-22T11:00:00Z', revokedBy: 'u-2' }
      const theirs = token('theirs', 'ci-t', 40, {
        state: 'revoked',
        tokenValue: undefined,
        ...fields,
      })
      return logged(done(cleanedUp({ revokedElsewhere: [theirs] })), 'info: The gateway token')
    },
    expected:
      "info: The gateway token 'ci-t' (theirs) was revoked by someone else meanwhile at 2026-11-22T11:00:00Z by u-2 (another job, or a person): counted as revoked.",
  },
  {
    situation: 'a cleanup keeps the newest token of a name in use (keep: 1)',
    message: () =>
      logged(
        done(
          cleanedUp({ kept: [{ token: token('new', 'ci', 40), why: 'keep' }] }),
          cleanupTask({ keep: 1 }),
        ),
        'info: Kept',
      ),
    expected: "info: Kept gateway token 'ci' (new), 40d old: the newest of its name (keep: 1).",
  },
  {
    situation: 'a cleanup keeps one of the newest tokens of a name (keep: 3)',
    message: () =>
      logged(
        done(
          cleanedUp({ kept: [{ token: token('new', 'ci', 40), why: 'keep' }] }),
          cleanupTask({ keep: 3 }),
        ),
        'info: Kept',
      ),
    expected:
      "info: Kept gateway token 'ci' (new), 40d old: one of the 3 newest of its name (keep: 3).",
  },
  {
    situation: 'a cleanup by pattern keeps the only token of a name (pr-123)',
    message: () =>
      logged(
        done(
          cleanedUp({
            kept: [{ token: token('new', 'pr-123', 40), why: 'keep', soleOfName: true }],
          }),
          cleanupTask({ name: ['pr-*'], keep: 1 }),
        ),
        'info: Kept',
      ),
    expected:
      "info: Kept gateway token 'pr-123' (new), 40d old: the newest of its name (keep: 1); the only token its name has: keep: 0 revokes it too.",
  },
  {
    situation: 'a create with revokeOnExit: failure',
    message: () => revokeOnExitNote('failure'),
    expected:
      'It will be revoked at the end of the job if the job does not succeed (revokeOnExit: failure).',
  },
])
