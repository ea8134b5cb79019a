// Issue 9, case 1: text from the platform cannot act as a runner command, in either syntax.
import { describe, expect, it } from '@jest/globals'
import { RUNNER_COMMANDS } from '../support/workflow-commands.mjs'
import {
  expectCleanFailure,
  expectNoLeaks,
  expectOwnCommandsOnly,
  runAgainst,
  useFakePlatform,
} from './helpers.js'

const platform = useFakePlatform()
const DAY = 86_400_000

/**
 * Every command the runner knows, in both syntaxes, at the start and in the middle of a
 * line, behind a zero-width space, in upper case, with properties, and after a line break.
 */
const INJECTIONS = RUNNER_COMMANDS.flatMap((name) => [
  `::${name}::x`,
  `##[${name}]x`,
  `ci ##[${name}]x`,
  `ci #\u200b#[${name}]x`,
  `ci ##[${name.toUpperCase()}]x`,
  `ci ##[${name} name=a;file=b]x`,
  `ci\n::${name} name=a,file=b::x`,
  `ci\r::${name}::x`,
])
/** The same, where a line break cannot go (an HTTP reason phrase). */
const ONE_LINE_INJECTIONS = INJECTIONS.filter((text) => !/[\r\n]/.test(text))

/** `items` in groups of `size`. */
function chunks<T>(items: readonly T[], size: number): T[][] {
  const groups: T[][] = []
  for (let at = 0; at < items.length; at += size) groups.push(items.slice(at, at + size))
  return groups
}

describe('no runner command through platform text (the committed bundle, read as the runner reads it)', () => {
  it('has something to prove: every runner command, in 8 forms, 6 of them on one line', () => {
    expect(RUNNER_COMMANDS).toHaveLength(16)
    expect(INJECTIONS).toHaveLength(16 * 8)
    expect(ONE_LINE_INJECTIONS).toHaveLength(16 * 6)
  })

  it('through token names: a cleanup logs each one, readable, and gives no command', async () => {
    for (const name of INJECTIONS) platform().seed({ name, ageMs: 40 * DAY })
    const secrets = platform().secrets()
    const run = await runAgainst(platform(), { operation: 'cleanup', olderThan: '30d', keep: '0' })

    expect(run.exitCode).toBe(0)
    expect(run.outputs.count).toBe(String(INJECTIONS.length))
    expectOwnCommandsOnly(run, [...secrets, ...platform().secrets()])
    expectNoLeaks(run, [...secrets, ...platform().secrets()])
    // Readable: a space between `##` and `[`, line breaks made spaces.
    expect(run.log).toContain("Revoked gateway token 'ci ## [stop-commands]x' (")
    expect(run.log).toContain("Revoked gateway token 'ci ::add-mask name=a,file=b::x' (")
    expect(run.log).toContain("Revoked gateway token '::set-output::x' (")
  })

  it('through ids: a cleanup names each id it would not put in a URL, and gives no command', async () => {
    // Ids that differ only in case are one id: one of each.
    const distinct = ONE_LINE_INJECTIONS.filter(
      (id, i, all) => all.findIndex((other) => other.toLowerCase() === id.toLowerCase()) === i,
    )
    const hostile = new Map(
      distinct.map((id) => [platform().seed({ name: 'ci', ageMs: DAY }).id, id]),
    )
    platform().rewriteRecord = (record, answer) =>
      answer === 'list' ? { ...record, id: hostile.get(record.id) ?? record.id } : record
    const secrets = platform().secrets()
    const run = await runAgainst(platform(), { operation: 'cleanup', name: 'ci', keep: '0' })

    const count = distinct.length
    expect(count).toBe(16 * 5)
    expect(expectCleanFailure(run)).toMatch(
      new RegExp(`^cleanup failed: ${count} of ${count} tokens were not revoked`),
    )
    expect(run.warnings).toHaveLength(count)
    expect(run.warnings).toContain(
      `Could not revoke gateway token 'ci' (ci ## [error]x): the token id "ci ## [error]x" is not a UUID, so it was not sent in a URL; nothing was revoked.`,
    )
    expect(platform().requestLines('api')).toEqual(['GET /api/tokens'])
    expectOwnCommandsOnly(run, [...secrets, ...platform().secrets()])
    expectNoLeaks(run, [...secrets, ...platform().secrets()])
  })

  it('through dates: unreadable createdAt in a cleanup, and createdAt of a reused token', async () => {
    for (const createdAt of INJECTIONS) platform().seed({ name: 'ci', createdAt })
    const secrets = platform().secrets()
    const cleanup = await runAgainst(platform(), {
      operation: 'cleanup',
      olderThan: '30d',
      keep: '0',
    })

    expect(cleanup.exitCode).toBe(0)
    expect(cleanup.outputs.count).toBe('0')
    expect(cleanup.warnings).toHaveLength(INJECTIONS.length)
    expectOwnCommandsOnly(cleanup, [...secrets, ...platform().secrets()])

    const reused = platform().seed({ name: 'web', createdAt: 'ci ##[stop-commands]x' })
    const create = await runAgainst(platform(), {
      operation: 'create',
      name: 'web',
      ifExists: 'reuse',
    })
    expect(create.exitCode).toBe(0)
    expect(create.log).toContain(
      `Reused the gateway token 'web' (${reused.id}), created ci ## [stop-commands]x.`,
    )
    expectOwnCommandsOnly(create, platform().secrets())
    expectNoLeaks(create, platform().secrets(), { allowedOutputs: ['tokenValue'] })
  })

  it('through the revokedAt of a token revoked already', async () => {
    const token = platform().seed({ name: 'ci', state: 'revoked' })
    platform().rewriteRecord = (record) => ({
      ...record,
      revokedAt: '::stop-commands::x ##[error]y',
    })
    const run = await runAgainst(platform(), { operation: 'revoke', tokenId: token.id })

    expect(run.exitCode).toBe(0)
    expect(run.notices).toEqual([
      `The gateway token 'ci' (${token.id}) was already revoked at ::stop-commands::x ## [error]y; nothing to do.`,
    ])
    expectOwnCommandsOnly(run, platform().secrets())
  })

  it('through server details: every injection as a reason phrase and in an error body', async () => {
    // One answered 503 for each one-line injection, as its reason phrase; the bodies carry
    // all of them, six to a body (the detail is cut at 300 characters). At most ten 503s in
    // a run (retries: 10), each retried at once (Retry-After: 0).
    const bodies = chunks(INJECTIONS, 6)
    const faults = ONE_LINE_INJECTIONS.map((reason, i) => ({
      reason,
      errors: bodies[i % bodies.length],
    }))
    expect(faults.length).toBeGreaterThanOrEqual(bodies.length)
    for (const [run, ofRun] of chunks(faults, 10).entries()) {
      for (const { reason, errors } of ofRun) {
        platform().fail({
          server: 'api',
          path: '/api/tokens',
          status: 503,
          statusText: reason,
          headers: { 'Retry-After': '0' },
          json: { errors },
        })
      }
      const secrets = platform().secrets()
      const list = await runAgainst(platform(), { operation: 'list', retries: '10' })

      expect(list.exitCode).toBe(0)
      expect(platform().faultsLeft()).toBe(0)
      const retryLines = list.log
        .split('\n')
        .filter((line) => line.endsWith('; retrying in 0.0 s.'))
      expect(retryLines).toHaveLength(ofRun.length)
      expectOwnCommandsOnly(list, [...secrets, ...platform().secrets()])
      expectNoLeaks(list, [...secrets, ...platform().secrets()])
      if (run === 0) {
        expect(list.log).toContain(
          'answered 503 ci ## [ADD-MASK]x (attempt 5 of 11, Retry-After: 0): ::set-output::x; ## [set-output]x;',
        )
      }
    }
  })

  it('through a create echoed by a 500, then lost: the new value is still masked', async () => {
    // The case: the echo stopped command processing, and every later add-mask
    // (the new token's value) was printed as text.
    const name = 'pr-43 Bump deps ##[stop-commands]y'
    platform().fail({
      server: 'api',
      method: 'POST',
      path: '/api/tokens',
      status: 500,
      echo: 'body',
    })
    const run = await runAgainst(platform(), { operation: 'create', name })

    expect(run.exitCode).toBe(0)
    expect(run.log).toContain(
      "No token named 'pr-43 Bump deps ## [stop-commands]y' was created: sending the create again.",
    )
    const [created] = [...platform().tokens.values()]
    expect(run.masked).toContain(created?.tokenValue)
    expectOwnCommandsOnly(run, platform().secrets())
    expectNoLeaks(run, platform().secrets(), { allowedOutputs: ['tokenValue'] })
  })

  it('through the failure itself: a refusal whose detail holds commands', async () => {
    const token = platform().seed({ name: 'ci' })
    platform().fail({
      server: 'api',
      method: 'POST',
      status: 403,
      statusText: 'No ##[stop-commands]x',
      json: { error: 'denied ##[add-mask]y ::error::z' },
    })
    const run = await runAgainst(platform(), { operation: 'revoke', tokenId: token.id })

    expect(expectCleanFailure(run)).toMatch(
      /answered 403 No ## \[stop-commands\]x: denied ## \[add-mask\]y ::error::z\./,
    )
    expectOwnCommandsOnly(run, platform().secrets())
  })
})
