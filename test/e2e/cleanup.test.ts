import { describe, expect, it } from '@jest/globals'
import type { FakePlatform } from '../support/fake-platform.mjs'
import {
  AUTH,
  expectCleanFailure,
  expectNoLeaks,
  LIST,
  revokeLine,
  runAgainst,
  useFakePlatform,
} from './helpers.js'

const platform = useFakePlatform()
const DAY = 86_400_000

function ids(tokensOutput: string | undefined): string[] {
  return (JSON.parse(tokensOutput ?? '[]') as { id: string }[]).map((t) => t.id)
}

function states(p: FakePlatform): Record<string, string> {
  return Object.fromEntries([...p.tokens.values()].map((t) => [t.id, t.state]))
}

describe('cleanup (the committed bundle on Node 24)', () => {
  it('revokes active tokens older than olderThan, leaving new and revoked ones alone', async () => {
    const old1 = platform().seed({ name: 'ci-a', ageMs: 45 * DAY })
    const old2 = platform().seed({ name: 'ci-b', ageMs: 31 * DAY })
    const fresh = platform().seed({ name: 'ci-a', ageMs: 2 * DAY })
    const revoked = platform().seed({ name: 'ci-c', ageMs: 90 * DAY, state: 'revoked' })
    const run = await runAgainst(platform(), { operation: 'cleanup', olderThan: '30d', keep: '0' })

    expect(run.exitCode).toBe(0)
    expect(ids(run.outputs.tokens)).toEqual([old2.id, old1.id])
    expect(run.outputs.count).toBe('2')
    expect(states(platform())).toEqual({
      [old1.id]: 'revoked',
      [old2.id]: 'revoked',
      [fresh.id]: 'active',
      [revoked.id]: 'revoked',
    })
    const [auth, list, ...revokes] = platform().requestLines()
    expect([auth, list]).toEqual([AUTH, LIST])
    expect(revokes.sort()).toEqual([old1, old2].map((t) => revokeLine(t.id)).sort())
    expect(run.outputs.tokens).not.toContain('tokenValue')
    expect(run.summary).toMatch(
      /^### Gateway token cleanup: project <code>[0-9a-f-]{36}<\/code>\n\n.*older than 30d\. Revoked 2 tokens\./,
    )
    expect(run.log).toContain(`Revoked gateway token 'ci-a' (${old1.id}), 45d old.`)
    expectNoLeaks(run, [...platform().secrets(), old1.tokenValue ?? '', old2.tokenValue ?? ''])
  })

  it('with dryRun revokes nothing and reports the same plan', async () => {
    const old = platform().seed({ name: 'ci-a', ageMs: 45 * DAY })
    platform().seed({ name: 'ci-a', ageMs: 1 * DAY })
    const run = await runAgainst(platform(), {
      operation: 'cleanup',
      olderThan: '30d',
      keep: '0',
      dryRun: 'true',
    })

    expect(run.exitCode).toBe(0)
    expect(ids(run.outputs.tokens)).toEqual([old.id])
    expect(platform().requestLines()).toEqual([AUTH, LIST])
    expect(platform().tokens.get(old.id)?.state).toBe('active')
    expect(run.summary).toContain('### Gateway token cleanup (dry run)')
    expect(run.summary).toContain('#### Would revoke')
    expect(run.log).toContain(`Would revoke gateway token 'ci-a' (${old.id}), 45d old.`)
  })

  it('with a name pattern and keep, revokes all but the newest of each matching name', async () => {
    const a1 = platform().seed({ name: 'ci-a', ageMs: 1 * DAY })
    const a2 = platform().seed({ name: 'ci-a', ageMs: 2 * DAY })
    const a3 = platform().seed({ name: 'ci-a', ageMs: 3 * DAY })
    const b1 = platform().seed({ name: 'ci-b', ageMs: 50 * DAY })
    const prod = platform().seed({ name: 'prod', ageMs: 99 * DAY })
    const run = await runAgainst(platform(), { operation: 'cleanup', name: 'ci-*', keep: '1' })

    expect(run.exitCode).toBe(0)
    expect(ids(run.outputs.tokens)).toEqual([a2.id, a3.id])
    expect(states(platform())).toMatchObject({
      [a1.id]: 'active',
      [b1.id]: 'active',
      [prod.id]: 'active',
    })
    expect(run.summary).toContain('#### Kept')
    expect(run.summary).toMatch(
      new RegExp(`\\| ci-b \\| <code>${b1.id}</code> \\| 50d \\| .*keep: 1`),
    )
  })

  it('refuses to run without a selector, revoking nothing and sending nothing', async () => {
    platform().seed({ name: 'ci-a', ageMs: 45 * DAY })
    const run = await runAgainst(platform(), { operation: 'cleanup', keep: '1' })
    expect(expectCleanFailure(run)).toMatch(
      /^Input 'name' or 'olderThan' is required for operation cleanup: .* Nothing was revoked\.$/,
    )
    expect(platform().requests).toEqual([])
  })

  it('revokes the others when one token cannot be revoked, then fails naming it and why', async () => {
    const tokens = Array.from({ length: 6 }, (_, i) =>
      platform().seed({ name: `ci-${i}`, ageMs: (40 + i) * DAY }),
    )
    const stuck = tokens[2]
    if (stuck === undefined) throw new Error('no token')
    platform().fail({
      path: `/api/tokens/${stuck.id}/revoke`,
      status: 403,
      json: { error: 'Only the user who added this mediator may revoke its tokens' },
      times: Infinity,
    })
    const run = await runAgainst(platform(), { operation: 'cleanup', olderThan: '30d', keep: '0' })

    // The words: the golden messages of the unit tests (test/fixtures/golden.ts).
    const message = expectCleanFailure(run)
    expect(message).toMatch(/^cleanup failed: 1 of 6 tokens was not revoked \(the other 5 were\): /)
    expect(message).toContain(
      `'ci-2' (${stuck.id}): POST ${platform().baseUrl}/api/tokens/${stuck.id}/revoke`,
    )
    expect(message).toContain('answered 403 Forbidden: Only the user who added this mediator')
    expect(ids(run.outputs.tokens).sort()).toEqual(
      tokens
        .filter((t) => t !== stuck)
        .map((t) => t.id)
        .sort(),
    )
    expect(run.outputs.count).toBe('5')
    expect(
      [...platform().tokens.values()].filter((t) => t.state === 'active').map((t) => t.id),
    ).toEqual([stuck.id])
    expect(run.summary).toContain('#### Not revoked')
  })

  it('under a restricted role, reports every refusal after one shared look at the list', async () => {
    for (let i = 0; i < 10; i++) platform().seed({ name: `ci-${i}`, ageMs: 40 * DAY })
    platform().role = 'viewer'
    const run = await runAgainst(platform(), { operation: 'cleanup', olderThan: '30d', keep: '0' })
    expect(expectCleanFailure(run)).toMatch(
      /^cleanup failed: 10 of 10 tokens were not revoked \(the other 0 were\): /,
    )
    const lines = platform().requestLines()
    expect(lines.filter((line) => line === LIST)).toHaveLength(2)
    expect(lines).toHaveLength(1 + 1 + 10 + 1)
    expect(run.outputs.count).toBe('0')
    expect(run.warnings).toHaveLength(10)
    expect(run.warnings[0]).toMatch(
      /^Could not revoke gateway token 'ci-\d' \([0-9a-f-]{36}\): POST .* answered 403 Forbidden: /,
    )
  })

  it('counts a revoke whose answer was garbled as revoked, though a refusal shared a list before it', async () => {
    const refused = platform().seed({ name: 'theirs', ageMs: 40 * DAY })
    const garbled = platform().seed({ name: 'mine', ageMs: 41 * DAY })
    platform().fail({ path: `/api/tokens/${refused.id}/revoke`, status: 403, times: Infinity })
    platform().fail({
      path: `/api/tokens/${garbled.id}/revoke`,
      commit: true,
      status: 200,
      body: 'garbled',
    })
    // One at a time, the refusal first: its look at the list comes before the garbled revoke.
    const run = await runAgainst(platform(), {
      operation: 'cleanup',
      olderThan: '30d',
      keep: '0',
      concurrency: '1',
    })
    expect(expectCleanFailure(run)).toMatch(
      /^cleanup failed: 1 of 2 tokens was not revoked \(the other 1 was\): 'theirs'/,
    )
    expect(ids(run.outputs.tokens)).toEqual([garbled.id])
  })

  it('keeps going under a persistent 500 on one token, with its retries', async () => {
    const [bad, good] = [
      platform().seed({ name: 'a', ageMs: 40 * DAY }),
      platform().seed({ name: 'b', ageMs: 41 * DAY }),
    ]
    platform().fail({ path: `/api/tokens/${bad.id}/revoke`, status: 500, times: Infinity })
    const run = await runAgainst(platform(), {
      operation: 'cleanup',
      olderThan: '30d',
      keep: '0',
      retries: '1',
    })
    expect(expectCleanFailure(run)).toContain(`'a' (${bad.id}): POST`)
    expect(expectCleanFailure(run)).toContain('answered 500 Internal Server Error (attempt 2 of 2)')
    expect(ids(run.outputs.tokens)).toEqual([good.id])
  })

  it('renews an access token that expires in the middle of a long cleanup', async () => {
    for (let i = 0; i < 20; i++) platform().seed({ name: `ci-${i}`, ageMs: 40 * DAY })
    platform().accessTokenLifetime = 1
    platform().fail({ path: /\/revoke$/, delayMs: 150, times: Infinity })
    const run = await runAgainst(platform(), {
      operation: 'cleanup',
      olderThan: '30d',
      keep: '0',
      concurrency: '2',
    })

    expect(run.exitCode).toBe(0)
    expect(run.outputs.count).toBe('20')
    expect(platform().requestLines('auth').length).toBeGreaterThan(1)
  })

  it('keeps the summary under 128 KiB for 5,000 tokens, with complete outputs', async () => {
    for (let i = 0; i < 5000; i++)
      platform().seed({ name: `mediator-${i}`, ageMs: 40 * DAY + i * 60_000 })
    const run = await runAgainst(platform(), {
      operation: 'cleanup',
      olderThan: '30d',
      keep: '0',
      dryRun: 'true',
    })
    expect(run.exitCode).toBe(0)
    expect(run.outputs.count).toBe('5000')
    // Over 1 MiB: tokens is the empty string, the records are in tokensFile (token-files.test.ts).
    expect(run.outputs.tokens).toBe('')
    expect(Buffer.byteLength(run.summary)).toBeLessThan(128 * 1024)
    expect(run.summary).toMatch(/\d+ more not shown: a step summary must stay under 128 KiB/)
  })
})
