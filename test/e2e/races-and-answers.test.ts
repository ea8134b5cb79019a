// Two jobs racing over the same tokens, and answers that do not match the request (issue 16, cases 5 and 6).
import { describe, expect, it } from '@jest/globals'
import {
  AUTH,
  CREATE,
  expectCleanFailure,
  LIST,
  revokeLine,
  runAgainst,
  useFakePlatform,
} from './helpers.js'

const platform = useFakePlatform()
const DAY = 86_400_000

describe('two cleanups at once (case 5)', () => {
  it.each([409, 400, 404] as const)(
    'over the same 30 tokens, on a platform that refuses a revoked token with %d: both pass, every token counted once',
    async (status) => {
      platform().alreadyRevokedStatus = status
      // Slow enough that the two jobs, started together, overlap.
      platform().latencyMs = 40
      const tokens = Array.from({ length: 30 }, (_, i) =>
        platform().seed({ name: `ci-${i}`, ageMs: (40 + i) * DAY }),
      )
      const inputs = { operation: 'cleanup', olderThan: '30d', keep: '0', concurrency: '4' }
      const runs = await Promise.all([
        runAgainst(platform(), inputs),
        runAgainst(platform(), inputs),
      ])

      for (const run of runs) {
        expect(run.errors).toEqual([])
        expect(run.exitCode).toBe(0)
      }
      expect([...platform().tokens.values()].every((t) => t.state === 'revoked')).toBe(true)
      const lines = (text: string, pattern: RegExp) =>
        text.split('\n').filter((line) => pattern.test(line)).length
      const mine = runs.map((run) => lines(run.log, /^Revoked gateway token /))
      const theirs = runs.map((run) => lines(run.log, /was revoked by someone else meanwhile/))
      const sum = (counts: number[]) => counts.reduce((a, b) => a + b, 0)
      // Each token was revoked by exactly one of them, and they collided.
      expect(sum(mine)).toBe(tokens.length)
      expect(sum(theirs)).toBeGreaterThan(0)
      // Each job's outputs count what it revoked and what the other revoked meanwhile (a job
      // that listed after the other had begun does not select what was revoked already).
      for (const [i, run] of runs.entries()) {
        expect(Number(run.outputs.count)).toBe((mine[i] ?? 0) + (theirs[i] ?? 0))
      }
      const summaries = runs.map((run) => run.summary).join('\n')
      expect(summaries).toContain('#### Revoked by someone else meanwhile')
    },
  )
})

describe('answers are checked against the request (case 6)', () => {
  it("a revoke answered with another token's record is not reported as that token revoked", async () => {
    const mine = platform().seed({ name: 'mine', ageMs: DAY })
    const other = platform().seed({ name: 'other-y', ageMs: DAY, state: 'revoked' })
    // The platform revokes this one, then answers with the other's record.
    platform().rewriteRecord = (record, answer) =>
      answer === 'revoke' ? { ...platform().tokens.get(other.id) } : record
    const run = await runAgainst(platform(), { operation: 'revoke', tokenId: mine.id })
    expect(run.exitCode).toBe(0)
    expect(run.outputs.tokenId).toBe(mine.id)
    expect(run.outputs.name).toBe('mine')
    expect(run.log).toContain(`Revoked gateway token 'mine' (${mine.id}).`)
    expect(run.log).not.toContain('other-y')
    // The list, fetched after the answer, said what happened.
    expect(platform().requestLines()).toEqual([AUTH, revokeLine(mine.id), LIST])
  })

  it("a revoke answered 200 with another token's record, the token still active, fails the step", async () => {
    const mine = platform().seed({ name: 'mine', ageMs: DAY })
    const other = platform().seed({ name: 'other-y', ageMs: DAY, state: 'revoked' })
    platform().fail({
      path: `/api/tokens/${mine.id}/revoke`,
      status: 200,
      json: platform().tokens.get(other.id),
    })
    const run = await runAgainst(platform(), { operation: 'revoke', tokenId: mine.id })
    expect(expectCleanFailure(run)).toContain(
      `answered 200 with the record of another token, 'other-y' (${other.id}).`,
    )
    expect(run.outputs).toEqual({})
    expect(platform().tokens.get(mine.id)?.state).toBe('active')
  })

  it('a create answered with state revoked fails, handing no value on', async () => {
    platform().rewriteRecord = (record, answer) =>
      answer === 'create' ? { ...record, state: 'revoked' } : record
    const run = await runAgainst(platform(), { operation: 'create', name: 'pr-1' })
    expect(expectCleanFailure(run)).toContain(
      `in state "revoked", not an active token named 'pr-1': its value was not handed on.`,
    )
    expect(run.outputs).toEqual({})
    expect(platform().requestLines()).toEqual([AUTH, CREATE])
  })

  it('a create answered with another name revokes that token at once and fails', async () => {
    platform().rewriteRecord = (record, answer) =>
      answer === 'create' ? { ...record, name: 'pr-1-renamed' } : record
    const run = await runAgainst(platform(), { operation: 'create', name: 'pr-1' })
    const [created] = [...platform().tokens.values()]
    expect(expectCleanFailure(run)).toContain('It was revoked at once.')
    expect(created?.state).toBe('revoked')
    expect(run.outputs).toEqual({})
  })
})
