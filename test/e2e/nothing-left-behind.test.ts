// Nothing left behind, nothing unreadable, whatever fails (issue 18): runner files, odd token values.
import { describe, expect, it } from '@jest/globals'
import type { FakePlatform } from '../support/fake-platform.mjs'
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
      `The new gateway token 'pr-1' (${token?.id ?? ''}) was revoked at once, as its value was not handed on.`,
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
    expect(expectCleanFailure(run)).toMatch(
      /^create failed: the token value is 1500003 bytes, over the runner's limit of 1 MiB for one output \(tokenValue\)\. The new gateway token/,
    )
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
