// A cleanup at the platform's pace (issue 17): its limits learnt, no token lost, attempts bounded.
import { describe, expect, it } from '@jest/globals'
import type { FakePlatform } from '../support/fake-platform.mjs'
import { runAgainst, useFakePlatform } from './helpers.js'

const platform = useFakePlatform()
const DAY = 86_400_000

/** Seeds `n` old tokens, each of its own name. */
function seedOld(p: FakePlatform, n: number) {
  return Array.from({ length: n }, (_, i) => p.seed({ name: `ci-${i}`, ageMs: (31 + i) * DAY }))
}

/** How many times each token's revoke was sent, at most. */
function mostSends(p: FakePlatform): number {
  const counts = new Map<string, number>()
  for (const line of p.requestLines('api').filter((l) => l.includes('/revoke')))
    counts.set(line, (counts.get(line) ?? 0) + 1)
  return Math.max(...counts.values())
}

const cleanup = { operation: 'cleanup', olderThan: '30d', keep: '0' }

describe("a cleanup at the platform's pace (the committed bundle)", () => {
  it.each(['seconds', '0', 'none'] as const)(
    'learns a limit of 4 in flight with concurrency 8 (Retry-After %s): every token revoked, each sent at most retries + 1 times',
    async (retryAfter) => {
      platform().latencyMs = 10
      platform().throttle = { limit: { inFlight: 4 }, retryAfter }
      seedOld(platform(), 60)
      const run = await runAgainst(platform(), { ...cleanup, concurrency: '8' })

      expect(run.exitCode).toBe(0)
      expect(run.outputs.count).toBe('60')
      expect([...platform().tokens.values()].every((t) => t.state === 'revoked')).toBe(true)
      expect(mostSends(platform())).toBeLessThanOrEqual(4)
      // Only the first round over the limit is turned away: the limit is learnt from it.
      expect(platform().throttled).toBeLessThanOrEqual(8)
      expect(run.log).toContain(
        'The platform turns away more than 4 revokes in flight: sending 4 at a time.',
      )
    },
  )

  it.each(['seconds', '0', 'none'] as const)(
    'paces to a rate limit of 50 a second, bursts of 10 (Retry-After %s): every token revoked, attempts bounded',
    async (retryAfter) => {
      platform().throttle = { limit: { perSecond: 50, burst: 10 }, retryAfter }
      // Several tokens of each name (keep: 0 still revokes every one of them).
      for (let i = 0; i < 80; i++) platform().seed({ name: `ci-${i % 8}`, ageMs: (31 + i) * DAY })
      const run = await runAgainst(
        platform(),
        { ...cleanup, concurrency: '8' },
        { timeoutMs: 30_000 },
      )

      expect(run.exitCode).toBe(0)
      expect(run.outputs.count).toBe('80')
      expect([...platform().tokens.values()].every((t) => t.state === 'revoked')).toBe(true)
      expect(platform().throttled).toBeGreaterThan(0)
      expect(mostSends(platform())).toBeLessThanOrEqual(4)
      expect(run.log).toMatch(
        /The platform limits the rate of requests: sending revokes a little slower than it lets them in/,
      )
    },
    30_000,
  )

  it('with retries 0, a throttled revoke is sent once and reported, the others revoked', async () => {
    platform().throttle = { limit: { inFlight: 2 } }
    platform().latencyMs = 10
    seedOld(platform(), 10)
    const run = await runAgainst(platform(), { ...cleanup, concurrency: '4', retries: '0' })
    expect(mostSends(platform())).toBe(1)
    const notRevoked = [...platform().tokens.values()].filter((t) => t.state === 'active').length
    expect(notRevoked).toBe(platform().throttled)
    expect(notRevoked).toBeGreaterThan(0)
    expect(run.exitCode).toBe(1)
  })
})
