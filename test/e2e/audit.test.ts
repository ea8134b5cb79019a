// operation audit on the committed bundle: what it finds and names, that it never revokes,
// its report's escaping and size, and olderThan checked before any request.
import { describe, expect, it } from '@jest/globals'
import { PROJECT_ID } from '../support/fake-platform.mjs'
import {
  expectCleanFailure,
  expectNoLeaks,
  expectOwnCommandsOnly,
  runAgainst,
  useFakePlatform,
} from './helpers.js'

const platform = useFakePlatform()
const DAY = 86_400_000
const SUMMARY_LIMIT = 128 * 1024

describe('audit (the committed bundle on Node 24)', () => {
  it('fails naming each active token older than the limit, the only one of its name too; sends no revoke', async () => {
    const only = platform().seed({ name: 'mediator-production', ageMs: 91 * DAY })
    const young = platform().seed({ name: 'mediator-staging', ageMs: 89 * DAY })
    const odd = platform().seed({ name: 'mediator-legacy', createdAt: '2026-13-45T00:00:00Z' })
    const run = await runAgainst(platform(), { operation: 'audit', olderThan: '90d' })

    const error = expectCleanFailure(run)
    expect(error).toBe(
      `audit failed: 1 active token is older than 90d; 1 more cannot be dated. Older: 'mediator-production' (${only.id}). Their createdAt cannot be read: 'mediator-legacy' (${odd.id}).`,
    )
    expect(run.outputs.count).toBe('1')
    expect(run.log).not.toContain(young.id)
    expect(
      platform()
        .requestLines()
        .filter((line) => line.includes('revoke')),
    ).toEqual([])
    expect([...platform().tokens.values()].every((t) => t.state === 'active')).toBe(true)
    expect(run.summary).toContain(`### Gateway token audit: project <code>${PROJECT_ID}</code>`)
    expect(run.summary).not.toMatch(/would revoke/i)
    expectNoLeaks(run, platform().secrets())
  })

  it('passes and says so when nothing is older; a list of names takes only those names', async () => {
    platform().seed({ name: 'preview-pr-70', ageMs: 400 * DAY })
    platform().seed({ name: 'preview-pr-7-debug', ageMs: 400 * DAY })
    platform().seed({ name: 'preview-pr-7', ageMs: 10 * DAY })
    const run = await runAgainst(platform(), {
      operation: 'audit',
      name: 'preview-pr-7\n\n  preview-pr-9  \n',
      olderThan: '30d',
    })
    expect(run.exitCode).toBe(0)
    expect(run.outputs).toMatchObject({ count: '0', tokens: '[]' })
    expect(run.log).toContain('No active token matching name is older than 30d (3 tokens checked).')
  })

  it('escapes platform names in its report and keeps it under 128 KiB with thousands of findings', async () => {
    const sly = 'x|y ##[add-mask]z <script> ::error::w `c`'
    for (let i = 0; i < 2000; i++)
      platform().seed({ name: `${sly}-${i}-${'€'.repeat(60)}`, ageMs: (100 + i) * DAY })
    const run = await runAgainst(platform(), { operation: 'audit', olderThan: '90d' })

    expectCleanFailure(run)
    expect(run.outputs.count).toBe('2000')
    expect(Buffer.byteLength(run.summary)).toBeLessThan(SUMMARY_LIMIT)
    expect(run.summary).toContain(
      'x&#124;y ##&#91;add-mask&#93;z &#60;script&#62; ::error::w &#96;c&#96;-0-',
    )
    expect(run.summary).toMatch(/\d+ more not shown: a step summary must stay under 128 KiB/)
    expect(run.errors[0]).toContain(
      'And 1995 more: the job summary and the tokensFile output list them.',
    )
    expectOwnCommandsOnly(run, run.masked)
  })

  it.each([
    [{}, "Input 'olderThan' is required for operation audit"],
    [{ olderThan: '90' }, "Input 'olderThan' must be a whole number and a unit"],
  ])('refuses olderThan %j before any request', async (given, message) => {
    const run = await runAgainst(platform(), { operation: 'audit', ...given })
    expect(expectCleanFailure(run)).toContain(message)
    expect(platform().requestLines()).toEqual([])
  })
})
