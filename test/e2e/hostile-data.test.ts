// Issue 9, cases 2, 3, 5, 6, 9 and 12: what the platform sends is checked before it is used.
import { describe, expect, it } from '@jest/globals'
import { AUTH_PATH } from '../support/fake-platform.mjs'
import { runAction } from '../support/runner.mjs'
import {
  AUTH,
  CREATE,
  expectCleanFailure,
  expectNoLeaks,
  expectOwnCommandsOnly,
  LIST,
  revokeLine,
  runAgainst,
  useFakePlatform,
} from './helpers.js'

const platform = useFakePlatform()
const DAY = 86_400_000

describe('ids go into a URL only as UUIDs (case 2)', () => {
  it('a create answered with id "..": no request with it, in the main step or the post step', async () => {
    platform().rewriteRecord = (record) => ({ ...record, id: '..' })
    const inputs = {
      ...platform().connectionInputs(),
      operation: 'create',
      name: 'pr-2',
      revokeOnExit: 'true',
    }
    const main = await runAction({ inputs })
    // The words of each message: the golden messages of the unit tests (test/fixtures/golden.ts).
    const message = expectCleanFailure(main)
    expect(message).toMatch(/^create failed: POST \S+\/api\/tokens answered 201 /)
    expect(message).toContain('id ".." is not a UUID')
    expect(message).toContain("a token named 'pr-2' was created")
    expect(message).toContain('Revoke it and run again')
    expect(main.outputs.tokenValue).toBeUndefined()

    const post = await runAction({ step: 'post', inputs, state: main.state })
    expect(post.exitCode).toBe(0)
    const [warning, ...more] = post.warnings
    expect(more).toEqual([])
    expect(warning).toContain("Could not revoke gateway token 'pr-2' (..) at the end of the job")
    expect(warning).toContain('the token id ".." is not a UUID, so it was not sent in a URL')
    expect(warning).toContain('look for it with operation: list')
    expect(platform().requestLines()).toEqual([AUTH, CREATE, LIST, AUTH, LIST])
    const [token] = [...platform().tokens.values()]
    expect(token?.state).toBe('active')
    expectNoLeaks(post, platform().secrets())
  })

  it('a list holding ids "." and "..": a cleanup revokes the others and sends neither', async () => {
    const dot = platform().seed({ name: 'ci', ageMs: 40 * DAY, id: '.' })
    const dots = platform().seed({ name: 'ci', ageMs: 41 * DAY, id: '..' })
    const good = platform().seed({ name: 'ci', ageMs: 42 * DAY })
    const run = await runAgainst(platform(), { operation: 'cleanup', olderThan: '30d', keep: '0' })

    expect(expectCleanFailure(run)).toMatch(
      /^cleanup failed: 2 of 3 tokens were not revoked \(the other 1 was\): 'ci' \(\.\): the token id "\." is not a UUID/,
    )
    expect(platform().requestLines()).toEqual([AUTH, LIST, revokeLine(good.id)])
    expect(platform().tokens.get(dot.id)?.state).toBe('active')
    expect(platform().tokens.get(dots.id)?.state).toBe('active')
    expect(run.outputs.count).toBe('1')
  })
})

describe('dates are strict ISO 8601 (case 3)', () => {
  it('a cleanup by age revokes no token whose createdAt only Date.parse could read', async () => {
    const lenient = ['0', '12', 'n/a 1', 'unknown 2019', '2019', '2019-01-01'].map((createdAt) =>
      platform().seed({ name: 'ci', createdAt }),
    )
    const old = platform().seed({ name: 'ci', createdAt: '2019-01-01T00:00:00Z' })
    const run = await runAgainst(platform(), { operation: 'cleanup', olderThan: '30d', keep: '0' })

    expect(run.exitCode).toBe(0)
    expect(platform().requestLines()).toEqual([AUTH, LIST, revokeLine(old.id)])
    for (const token of lenient) expect(platform().tokens.get(token.id)?.state).toBe('active')
    expect(run.warnings).toHaveLength(lenient.length)
    expect(run.warnings).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^Token 'ci' \\(${lenient[3]?.id ?? ''}\\) has a createdAt .*"unknown 2019".*not revoked`,
        ),
      ),
    )
  })
})

describe('odd answers are ordinary failures (case 5)', () => {
  it('a 503 whose JSON nests 30,000 objects is retried like any 503', async () => {
    platform().fail({ server: 'api', path: '/api/tokens', status: 503, nest: 30_000 })
    const run = await runAgainst(platform(), { operation: 'list' })

    expect(run.exitCode).toBe(0)
    expect(run.log).toMatch(
      new RegExp(
        `answered 503 Service Unavailable \\(attempt 1 of 4\\): a JSON body of ${30_000 * 6 - 4} characters.*; retrying in`,
      ),
    )
    expect(platform().requestLines()).toEqual([AUTH, LIST, LIST])
  })

  it('the same at the auth endpoint fails naming the request and the status', async () => {
    platform().fail({ server: 'auth', status: 503, nest: 30_000 })
    const run = await runAgainst(platform(), { operation: 'list', retries: '0' })

    const message = expectCleanFailure(run)
    expect(message).toMatch(/^list failed: authentication failed: /)
    expect(message).toContain(`POST ${platform().authUrl}${AUTH_PATH} answered 503`)
    expect(message).toContain(`a JSON body of ${30_000 * 6 - 4} characters`)
  })

  it.each([
    ['CR/LF', 'eyJ.a\r\nX-Injected: 1'],
    ['NUL', 'eyJ.a\u0000b'],
    ['€', 'eyJ.a€b'],
    ['a space', 'eyJ.a b'],
  ])(
    'an access_token holding %s fails as authentication, before any API call',
    async (_, accessToken) => {
      platform().rewriteAuth = (payload) => ({ ...(payload as object), access_token: accessToken })
      const run = await runAgainst(platform(), { operation: 'list' })

      const message = expectCleanFailure(run)
      expect(message).toMatch(/^list failed: authentication failed: /)
      expect(message).toContain(`POST ${platform().authUrl}${AUTH_PATH} answered 200`)
      expect(message).toContain('access_token cannot be sent as a header value')
      expect(platform().requestLines()).toEqual([AUTH])
      expect(run.masked).toContain(accessToken)
      expectNoLeaks(run, platform().secrets())
    },
  )

  it('the other side: a JWT-like access token of visible ASCII is used', async () => {
    platform().rewriteAuth = (payload) => ({
      ...(payload as object),
      access_token: 'eyJ.a-b_c~+/=',
    })
    const run = await runAgainst(platform(), { operation: 'list' })
    expect(run.exitCode).toBe(0)
    expect(platform().requests.at(-1)?.headers.authorization).toBe('Bearer eyJ.a-b_c~+/=')
  })
})

describe('one record per id (case 6)', () => {
  it('a list that holds every record twice: a cleanup sends one revoke per token, count 3', async () => {
    const tokens = [1, 2, 3].map((i) => platform().seed({ name: 'ci', ageMs: (40 + i) * DAY }))
    platform().duplicateRecords = true
    const run = await runAgainst(platform(), { operation: 'cleanup', olderThan: '30d', keep: '0' })

    expect(run.exitCode).toBe(0)
    expect(run.outputs.count).toBe('3')
    const revokes = platform().requestLines().slice(2)
    expect(revokes.sort()).toEqual(tokens.map((token) => revokeLine(token.id)).sort())
  })

  it('and a list of it counts each once', async () => {
    for (const i of [1, 2, 3]) platform().seed({ name: `ci-${i}` })
    platform().duplicateRecords = true
    const run = await runAgainst(platform(), { operation: 'list' })
    expect(run.outputs.count).toBe('3')
    expect(run.log).toContain('3 of 3 tokens match.')
  })
})

describe('the summary stays under 128 KiB (case 9)', () => {
  const LIMIT = 128 * 1024
  const longName = 'ü'.repeat(70_000) // 140,000 bytes

  it('revoking a token whose name is 140 KB', async () => {
    const token = platform().seed({ name: longName })
    const run = await runAgainst(platform(), { operation: 'revoke', tokenId: token.id })

    expect(run.exitCode).toBe(0)
    expect(Buffer.byteLength(run.summary)).toBeLessThan(LIMIT)
    expect(run.summary).toContain('### Gateway token revoked')
    expect(run.outputs.name).toBe(longName)
    expectOwnCommandsOnly(run, platform().secrets())
  })

  it('listing ten of them', async () => {
    for (let i = 0; i < 10; i++) platform().seed({ name: `${longName}${i}` })
    const run = await runAgainst(platform(), { operation: 'list' })

    expect(run.exitCode).toBe(0)
    expect(run.outputs.count).toBe('10')
    expect(Buffer.byteLength(run.summary)).toBeLessThan(LIMIT)
    expect(Buffer.byteLength(run.summary)).toBeGreaterThan(1_000)
  })
})

describe('after a lost create without a Date header, no token that may be another’s is adopted (case 12)', () => {
  it('a same-name token made 30 s before the step is neither adopted nor revoked at the end', async () => {
    platform().sendDate = false
    const theirs = platform().seed({ name: 'pr-12', ageMs: 30_000 })
    platform().fail({ server: 'api', method: 'POST', path: '/api/tokens', status: 502 })
    const inputs = {
      ...platform().connectionInputs(),
      operation: 'create',
      name: 'pr-12',
      revokeOnExit: 'true',
    }
    const main = await runAction({ inputs })

    const message = expectCleanFailure(main)
    expect(message).toContain(`one active token named 'pr-12', ${theirs.id}`)
    expect(message).toMatch(/created 3\d s before the create was sent/)
    expect(message).toContain('no Date header')
    expect(main.outputs.tokenValue).toBeUndefined()
    expect(platform().requestLines()).toEqual([AUTH, CREATE, LIST])

    const post = await runAction({ step: 'post', inputs, state: main.state })
    const [warning, ...more] = post.warnings
    expect(more).toEqual([])
    expect(warning).toMatch(/^Did not revoke a token named 'pr-12' /)
    expect(warning).toContain(`the only candidate, ${theirs.id}`)
    expect(warning).toMatch(/created 3\d s before/)
    expect(platform().tokens.get(theirs.id)?.state).toBe('active')
    expect(platform().requestLines().slice(3)).toEqual([AUTH, LIST])
  })

  it('the other side: the token the lost create made is adopted, Date header or not', async () => {
    platform().sendDate = false
    platform().seed({ name: 'pr-12', ageMs: 10 * 60_000 })
    platform().fail({
      server: 'api',
      method: 'POST',
      path: '/api/tokens',
      status: 502,
      commit: true,
    })
    const run = await runAgainst(platform(), { operation: 'create', name: 'pr-12' })

    expect(run.exitCode).toBe(0)
    const created = [...platform().tokens.values()].at(-1)
    expect(run.outputs.tokenId).toBe(created?.id)
    expect(platform().requestLines()).toEqual([AUTH, CREATE, LIST])
  })
})
