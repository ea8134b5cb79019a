// Nothing left behind, nothing unreadable, whatever fails (issue 18): runner files, odd token values.
import { describe, expect, it } from '@jest/globals'
import { randomBytes } from 'node:crypto'
import { AUTH_PATH, type FakePlatform } from '../support/fake-platform.mjs'
import {
  expectCleanFailure,
  expectNoLeaks,
  runAgainst,
  useFakePlatform,
  useJobDirs,
} from './helpers.js'

const platform = useFakePlatform()
const jobDir = useJobDirs()

/** The one token the platform holds, and its state. */
function onlyToken(p: FakePlatform) {
  const tokens = [...p.tokens.values()]
  expect(tokens).toHaveLength(1)
  return tokens[0]
}

describe('a runner file that cannot be written after a create (case 1)', () => {
  it.each([
    ['GITHUB_OUTPUT', 'full', {}],
    ['GITHUB_OUTPUT', 'missing', {}],
    ['GITHUB_ENV', 'full', { envName: 'YOURSERVICE_GATEWAY_TOKEN' }],
    ['GITHUB_STATE', 'full', { writeTokenFile: 'true' }],
  ] as const)('%s %s: named, and the new token revoked at once', async (file, how, inputs) => {
    const run = await runAgainst(
      platform(),
      { operation: 'create', name: 'pr-1', ...inputs },
      { broken: { [file]: how }, dir: jobDir() },
    )
    const message = expectCleanFailure(run)
    expect(message).toMatch(new RegExp(`^create failed: could not write ${file}: `))
    const token = onlyToken(platform())
    expect(message).toContain(
      `The value of the new gateway token 'pr-1' (${token?.id ?? ''}) was not handed on. It was revoked at once.`,
    )
    expect(token?.state).toBe('revoked')
    expectNoLeaks(run, platform().secrets())
  })

  it('GITHUB_STATE missing with revokeOnExit: named, and the create never sent', async () => {
    const run = await runAgainst(
      platform(),
      { operation: 'create', name: 'pr-1', revokeOnExit: 'true' },
      { broken: { GITHUB_STATE: 'missing' } },
    )
    expect(expectCleanFailure(run)).toMatch(
      /^create failed: could not write GITHUB_STATE: Missing file at path: /,
    )
    expect(platform().tokens.size).toBe(0)
    expect(platform().requestLines('api')).toEqual([])
  })

  it('names the token by id when the revoke at once fails too', async () => {
    platform().fail({ path: /\/revoke$/, status: 503, times: Infinity })
    const run = await runAgainst(
      platform(),
      { operation: 'create', name: 'pr-1', retries: '0' },
      { broken: { GITHUB_OUTPUT: 'full' } },
    )
    const token = onlyToken(platform())
    expect(expectCleanFailure(run)).toContain(
      `Revoke it with operation: revoke and tokenId: ${token?.id ?? ''}.`,
    )
    expect(token?.state).toBe('active')
  })
})

describe('token values (case 4)', () => {
  it('masks a value of several lines line by line, so that echoing it shows none', async () => {
    platform().rewriteRecord = (record, answer) =>
      answer === 'create'
        ? { ...record, tokenValue: 'first-line-abc\nsecond-line-def\nthird-line-ghi' }
        : record
    const run = await runAgainst(platform(), { operation: 'create', name: 'pr-1' })
    expect(run.exitCode).toBe(0)
    expect(run.masked).toEqual(
      expect.arrayContaining(['first-line-abc', 'second-line-def', 'third-line-ghi']),
    )
  })

  it.each([
    ['spaces', '   '],
    ['a tab and a line break', '\t\n'],
  ])('refuses a value of %s as none, and revokes the token it was for', async (_, blank) => {
    platform().rewriteRecord = (record, answer) =>
      answer === 'create' || answer === 'list' ? { ...record, tokenValue: blank } : record
    const run = await runAgainst(platform(), { operation: 'create', name: 'pr-1' })
    expect(expectCleanFailure(run)).toContain('It was revoked at once.')
    expect(onlyToken(platform())?.state).toBe('revoked')
    expect(run.outputs).toEqual({})
  })

  it('refuses a value over 1 MiB, the limit of one output, and revokes its token at once', async () => {
    const huge = `eyJ${'A'.repeat(1_500_000)}`
    platform().rewriteRecord = (record, answer) =>
      answer === 'create' ? { ...record, tokenValue: huge } : record
    const run = await runAgainst(platform(), { operation: 'create', name: 'pr-1' })
    const message = expectCleanFailure(run)
    expect(message).toMatch(/^create failed: the token value is 1500003 bytes/)
    expect(message).toContain('1 MiB for one output (tokenValue)')
    expect(message).toContain('was revoked at once')
    expect(onlyToken(platform())?.state).toBe('revoked')
    expect(run.outputs).toEqual({})
  })

  it('refuses envName for a value the environment of later steps cannot hold, pointing at writeTokenFile', async () => {
    const large = `eyJ${'A'.repeat(40_000)}`
    platform().rewriteRecord = (record, answer) =>
      answer === 'create' ? { ...record, tokenValue: large } : record
    const dir = jobDir()
    const run = await runAgainst(
      platform(),
      { operation: 'create', name: 'pr-1', envName: 'GW_TOKEN', revokeOnExit: 'true' },
      { dir },
    )
    expect(expectCleanFailure(run)).toContain('Use writeTokenFile: true')
    expect(run.env).toEqual({})
    expect(onlyToken(platform())?.state).toBe('revoked')
  })
})

describe('what a server sends back cannot crash the step or show a secret (case 5)', () => {
  it.each([
    ['zero-width spaces', '\u200b'],
    ['soft hyphens', '\u00ad'],
    ['word joiners', '\u2060'],
  ])('scrubs the client secret echoed with %s between its characters', async (_, mark) => {
    platform().fail({
      server: 'auth',
      status: 400,
      echo: () => `invalid secret ${Array.from(platform().clientSecret).join(mark)}`,
    })
    const run = await runAgainst(platform(), { operation: 'list' })
    const message = expectCleanFailure(run)
    expect(message).toMatch(/answered 400/)
    // Neither the secret nor any 12 characters of it, with the marks taken out, are shown.
    const shown = [run.log, run.summary, ...run.errors].join('\n').replaceAll(mark, '')
    expect(shown).not.toContain(platform().clientSecret)
    expectNoLeaks(run, platform().secrets())
  })

  it.each([
    ['the auth service', 'auth', AUTH_PATH, 'POST'],
    ['the API', 'api', '/api/tokens', 'GET'],
  ] as const)(
    'fails cleanly, with one error line, on an 18 MB refresh_token in a 503 answer of %s',
    async (_, server, path, method) => {
      platform().fail({
        server,
        path,
        status: 503,
        // Random, so that its pieces are all different: 18 million of them.
        json: { error: 'busy', refresh_token: randomBytes(14_155_776).toString('base64url') },
        times: Infinity,
      })
      const run = await runAgainst(platform(), { operation: 'list', retries: '1' })
      const message = expectCleanFailure(run)
      expect(message).toContain(`${method} ${platform().baseUrl.replace(/:\d+$/, '')}`)
      expect(message).toMatch(/answered 503 Service Unavailable \(attempt 2 of 2\)/)
      expect(message.length).toBeLessThan(2_000)
      expect(run.stderr).not.toMatch(/RangeError|Set maximum size/)
    },
  )
})

describe('invisible and bidirectional characters in names are shown, not obeyed (case 6)', () => {
  it('shows U+202E and U+2066 as <U+202E> and <U+2066> in the log, a warning and the summary', async () => {
    const spoofed = 'ci-\u202Eyeknom\u2066-x'
    const token = platform().seed({ name: spoofed, ageMs: 40 * 86_400_000 })
    platform().fail({ path: /\/revoke$/, status: 403 })
    const run = await runAgainst(platform(), {
      operation: 'cleanup',
      name: 'ci-*',
      keep: '0',
      retries: '0',
    })
    expectCleanFailure(run)
    const visible = 'ci-<U+202E>yeknom<U+2066>-x'
    expect(run.warnings.join('\n')).toContain(visible)
    expect(run.summary).toContain('ci-&#60;U+202E&#62;yeknom&#60;U+2066&#62;-x')
    expect(run.log).toContain(token.id)
    for (const text of [run.stdout, run.summary, run.errors.join('\n')]) {
      expect(text).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/)
    }
  })
})
