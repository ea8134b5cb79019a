// Issue 9, cases 4 and 7, and totalTimeout: bounded attempts and scrubbed echoes, on the bundle.
import { describe, expect, it } from '@jest/globals'
import { startFakePlatform, type FakePlatform } from '../support/fake-platform.mjs'
import {
  expectCleanFailure,
  expectNoLeaks,
  expectOwnCommandsOnly,
  runAgainst,
  useFakePlatform,
} from './helpers.js'

const platform = useFakePlatform()
const DAY = 86_400_000
const REVOKE = /\/revoke$/

describe('one attempt budget per request, also in a cleanup under 429 (case 4)', () => {
  it.each([
    ['0', 1],
    ['1', 2],
  ])(
    'with retries %s and a revoke that always answers 429, each token is tried %i time(s)',
    async (retries, attempts) => {
      const tokens = [1, 2, 3].map((i) => platform().seed({ name: 'ci', ageMs: (40 + i) * DAY }))
      platform().fail({
        server: 'api',
        path: REVOKE,
        status: 429,
        headers: { 'Retry-After': '1' },
        times: Infinity,
      })
      const run = await runAgainst(platform(), {
        operation: 'cleanup',
        olderThan: '30d',
        keep: '0',
        retries,
      })

      expect(expectCleanFailure(run)).toMatch(/^cleanup failed: 3 of 3 tokens were not revoked/)
      const revokes = platform()
        .requestLines('api')
        .filter((line) => line.includes('/revoke'))
      expect(revokes).toHaveLength(3 * attempts)
      for (const token of tokens) {
        expect(revokes.filter((line) => line.includes(token.id))).toHaveLength(attempts)
        expect(platform().tokens.get(token.id)?.state).toBe('active')
      }
      expect(run.warnings).toHaveLength(3)
    },
  )
})

describe('scrubbing of what a server echoes (case 7)', () => {
  it('a 503 reason phrase carrying the access token is scrubbed from the retry line', async () => {
    const accessToken = 'eyJhbGciOiJIUzI1NiJ9.reason-phrase-leak.QmFzZTY0U2lnbmF0dXJl'
    platform().rewriteAuth = (payload) => ({ ...(payload as object), access_token: accessToken })
    platform().fail({
      server: 'api',
      path: '/api/tokens',
      status: 503,
      statusText: `Unavailable for ${accessToken}`,
      headers: { 'Retry-After': '0' },
    })
    const run = await runAgainst(platform(), { operation: 'list' })

    expect(run.exitCode).toBe(0)
    expect(run.stdout).toContain(
      'answered 503 Unavailable for *** (attempt 1 of 4, Retry-After: 0)',
    )
    expectNoLeaks(run, [...platform().secrets(), accessToken])
  })

  describe('a client secret the auth service echoes re-encoded, or in pieces', () => {
    // Characters that URL-encoding, JSON and HTML treat differently: `/`, a space, `+`, `=`,
    // `&`, a non-ASCII letter.
    const SECRET = 'cs/Vålue with spaces+plus=&Z9-0123456789'
    const lowerHex = (text: string) =>
      encodeURIComponent(text).replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase())
    const forms: [string, string][] = [
      ['URL-encoded with lower-case hex', lowerHex(SECRET)],
      ['form-encoded, + for spaces', encodeURIComponent(SECRET).replace(/%20/g, '+')],
      ['URL-encoded with / left as it is', encodeURIComponent(SECRET).replace(/%2F/g, '/')],
      [
        'as HTML decimal references',
        Array.from(SECRET)
          .map((c) => `&#${c.codePointAt(0)};`)
          .join(''),
      ],
      [
        'as HTML hex references',
        Array.from(SECRET)
          .map((c) => `&#x${c.codePointAt(0)?.toString(16)};`)
          .join(''),
      ],
      ['split over two lines', `${SECRET.slice(0, 20)}\n${SECRET.slice(20)}`],
      ['a long piece of it', SECRET.slice(3, 20)],
    ]
    let echoing: FakePlatform | undefined

    it.each(forms)('%s: not in the failure, not in the log', async (_, form) => {
      echoing = await startFakePlatform({ clientSecret: SECRET })
      try {
        echoing.fail({
          server: 'auth',
          status: 401,
          echo: () => `Invalid client secret: ${form}`,
        })
        const run = await runAgainst(echoing, { operation: 'list', retries: '0' })

        const failure = expectCleanFailure(run)
        expect(failure).toMatch(/answered 401 Unauthorized: Invalid client secret: .*\*\*\*/)
        const printed = run.stdout.split('\n').filter((line) => !line.startsWith('::add-mask::'))
        expect(printed.join('\n')).not.toContain(form)
        for (const piece of pieces(SECRET)) expect(decoded(failure)).not.toContain(piece)
        expectNoLeaks(run, [SECRET])
        expectOwnCommandsOnly(run, [SECRET])
      } finally {
        await echoing.close()
      }
    })

    it('the other side: a detail that shares fewer than 8 characters with it is kept', async () => {
      echoing = await startFakePlatform({ clientSecret: SECRET })
      try {
        echoing.fail({ server: 'auth', status: 401, echo: () => 'Invalid: cs/Vålu is not known' })
        const run = await runAgainst(echoing, { operation: 'list', retries: '0' })
        expect(expectCleanFailure(run)).toContain(
          'answered 401 Unauthorized: Invalid: cs/Vålu is not known.',
        )
      } finally {
        await echoing.close()
      }
    })
  })
})

describe('totalTimeout bounds the whole step (the contract, once end to end)', () => {
  it('a cleanup cut short stops starting revokes, reports what it revoked, and fails naming what is left', async () => {
    const tokens = Array.from({ length: 20 }, (_, i) =>
      platform().seed({ name: `ci-${i}`, ageMs: (40 + i) * DAY }),
    )
    // Every revoke takes 300 ms: 20 of them, one at a time, need 6 s.
    platform().fail({ server: 'api', path: REVOKE, delayMs: 300, times: Infinity })
    const run = await runAgainst(platform(), {
      operation: 'cleanup',
      olderThan: '30d',
      keep: '0',
      concurrency: '1',
      totalTimeout: '2',
    })

    const failure = expectCleanFailure(run)
    const match =
      /^cleanup failed: totalTimeout \(2 s\) ran out: (\d+) tokens? revoked, (\d+) left active; run the cleanup again to revoke them\./.exec(
        failure,
      )
    expect(match).not.toBeNull()
    const revoked = Number(match?.[1])
    const left = Number(match?.[2])
    expect(revoked).toBeGreaterThan(0)
    expect(left).toBeGreaterThan(0)
    // A revoke cut off in flight is settled by one more list: revoked, or left, never unknown
    // when that list answers, never not revoked.
    expect(revoked + left).toBe(20)
    expect(run.outputs.count).toBe(String(revoked))
    expect(JSON.parse(run.outputs.tokens ?? '[]')).toHaveLength(revoked)
    expect(run.summary).toContain('Left active: totalTimeout ran out')
    expect(run.summary).not.toContain('Not revoked')
    const requests = platform().requestLines('api')
    const sent = requests.filter((line) => line.includes('/revoke'))
    expect(requests.at(-1)).toBe('GET /api/tokens')
    expect([revoked, revoked + 1]).toContain(sent.length)
    // The outputs agree with the platform.
    const revokedOnPlatform = tokens.filter((t) => platform().tokens.get(t.id)?.state === 'revoked')
    expect(revokedOnPlatform).toHaveLength(revoked)
  })
})

/** Every 8-character piece of `secret`, spaces and `+` left out, as the scrubber reads it. */
function pieces(secret: string): string[] {
  const compact = secret.replace(/[\s+]/g, '')
  return Array.from({ length: compact.length - 7 }, (_, i) => compact.slice(i, i + 8))
}

/** Text with HTML references and %-escapes decoded, spaces and `+` left out. */
function decoded(text: string): string {
  return text
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/(?:%[0-9a-f]{2})+/gi, (escapes) => {
      try {
        return decodeURIComponent(escapes)
      } catch {
        return escapes
      }
    })
    .replace(/[\s+]/g, '')
}
