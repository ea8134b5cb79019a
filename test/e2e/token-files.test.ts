import { describe, expect, it } from '@jest/globals'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { basename, dirname } from 'node:path'
import { timestamp } from '../support/fake-platform.mjs'
import { runAction } from '../support/runner.mjs'
import {
  AUTH,
  CREATE,
  expectCleanFailure,
  expectNoLeaks,
  runAgainst,
  useFakePlatform,
  useJobDirs,
} from './helpers.js'

const platform = useFakePlatform()

const jobDir = useJobDirs()

describe('writeTokenFile: the token value in a file (the committed bundle on Node 24)', () => {
  it('writes exactly the value, mode 0600, under RUNNER_TEMP; the post step deletes it', async () => {
    const dir = jobDir()
    const inputs = {
      ...platform().connectionInputs(),
      operation: 'create',
      name: 'mediator-production',
      writeTokenFile: 'true',
    }
    const main = await runAction({ inputs, dir })
    expect(main.exitCode).toBe(0)
    const path = main.outputs.tokenFile ?? ''
    expect(dirname(path)).toBe(dir)
    expect(basename(path)).toMatch(/^gateway-token-[0-9a-f]{32}$/)
    expect(readFileSync(path, 'utf8')).toBe(main.outputs.tokenValue)
    if (process.platform !== 'win32') expect(statSync(path).mode & 0o777).toBe(0o600)
    expect(main.state).toEqual({ tokenFile: path })
    expectNoLeaks(main, platform().secrets(), { allowedOutputs: ['tokenValue'] })

    const post = await runAction({ step: 'post', inputs, state: main.state, dir })
    expect(post.exitCode).toBe(0)
    expect(existsSync(path)).toBe(false)
    expect(post.log.trim()).toBe(`Deleted the token file ${path}.`)
    // Without revokeOnExit the post step sends nothing, and the token stays active.
    expect(platform().requestLines()).toEqual([AUTH, CREATE])
    expect(platform().tokens.get(main.outputs.tokenId ?? '')?.state).toBe('active')
  })

  it('is deleted by the post step after a main step that failed once it was written', async () => {
    const dir = jobDir()
    // GITHUB_ENV made unwritable: exporting envName, after the file, fails the step.
    const inputs = {
      ...platform().connectionInputs(),
      operation: 'create',
      name: 'mediator-production',
      writeTokenFile: 'true',
      envName: 'GATEWAY_TOKEN',
    }
    const main = await runAction({ inputs, dir, broken: { GITHUB_ENV: 'folder' } })
    // Named (issue 18): the value was not handed on, and the token was revoked at once.
    expect(expectCleanFailure(main)).toMatch(/^create failed: could not write GITHUB_ENV: EISDIR/)
    expect([...platform().tokens.values()].map((t) => t.state)).toEqual(['revoked'])
    const path = main.state.tokenFile ?? ''
    expect(dirname(path)).toBe(dir)
    expect(existsSync(path)).toBe(true)

    const post = await runAction({ step: 'post', inputs, state: main.state, dir })
    expect(post.exitCode).toBe(0)
    expect(existsSync(path)).toBe(false)
    expect(post.log.trim()).toBe(`Deleted the token file ${path}.`)
  })

  it('with revokeOnExit too: the post step deletes the file and revokes the token', async () => {
    const dir = jobDir()
    const inputs = {
      ...platform().connectionInputs(),
      operation: 'create',
      name: 'pr-42',
      writeTokenFile: 'true',
      revokeOnExit: 'true',
    }
    const main = await runAction({ inputs, dir })
    const path = main.outputs.tokenFile ?? ''
    const id = main.outputs.tokenId ?? ''
    const post = await runAction({ step: 'post', inputs, state: main.state, dir })
    expect(existsSync(path)).toBe(false)
    expect(post.log.trim().split('\n')).toEqual([
      `Deleted the token file ${path}.`,
      `Revoked gateway token 'pr-42' (${id}) at the end of the job (revokeOnExit).`,
    ])
    expect(platform().tokens.get(id)?.state).toBe('revoked')
  })

  it('is not written without writeTokenFile', async () => {
    const dir = jobDir()
    const main = await runAgainst(platform(), { operation: 'create', name: 'x' }, { dir })
    expect(main.outputs.tokenFile).toBe('')
    expect(main.state).toEqual({})
    expect(readdirSync(dir)).toEqual([])
  })
})

describe('tokensFile: the records in a file, and tokens within 1 MiB', () => {
  it('a list of 6,000: tokens is [], with a warning; tokensFile has them all; count is 6000', async () => {
    // One clock reading for all: seeding takes a while, and a second that ticks over
    // half-way would give two records the same whole-second createdAt.
    const now = Math.floor(Date.now() / 1_000) * 1_000
    const seeded = Array.from({ length: 6_000 }, (_, i) =>
      // A few active ones, so that values are there to leak; revoked ones have none.
      platform().seed({
        name: `mediator-gateway-eu-west-${String(i).padStart(4, '0')}`,
        createdAt: timestamp(now - (i + 1) * 1_000),
        state: i % 1_000 === 0 ? 'active' : 'revoked',
      }),
    )
    const dir = jobDir()
    const run = await runAgainst(platform(), { operation: 'list' }, { dir })
    expect(run.exitCode).toBe(0)

    const path = run.outputs.tokensFile ?? ''
    expect(dirname(path)).toBe(dir)
    const file = readFileSync(path, 'utf8')
    const bytes = Buffer.byteLength(file)
    expect(bytes).toBeGreaterThan(1_048_576)
    // Empty, not `[]`: a workflow that reads an empty array would see no tokens (issue 18, case 8).
    expect(run.outputs.tokens).toBe('')
    for (const value of Object.values(run.outputs))
      expect(Buffer.byteLength(value)).toBeLessThanOrEqual(1_048_576)
    expect(run.outputs.count).toBe('6000')
    // The words: the golden messages of the unit tests (test/fixtures/golden.ts).
    const [warning, ...more] = run.warnings
    expect(more).toEqual([])
    expect(warning).toContain(`The tokens output would be ${bytes} bytes`)
    expect(warning).toContain(`read tokensFile (${path})`)
    const records = JSON.parse(file) as { id: string }[]
    // Seeded newest first, one second apart.
    expect(records.map((record) => record.id)).toEqual(seeded.map((token) => token.id))
    expect(file).not.toContain('tokenValue')
    expectNoLeaks(run, platform().secrets())
  })

  it('a small list: tokens is the file content, and no warning', async () => {
    platform().seed({ name: 'ci-eu', ageMs: 2_000 })
    platform().seed({ name: 'ci-us', ageMs: 1_000, state: 'revoked' })
    const dir = jobDir()
    const run = await runAgainst(platform(), { operation: 'list' }, { dir })
    expect(run.exitCode).toBe(0)
    const path = run.outputs.tokensFile ?? ''
    expect(dirname(path)).toBe(dir)
    expect(readFileSync(path, 'utf8')).toBe(run.outputs.tokens)
    expect((JSON.parse(run.outputs.tokens ?? '') as { name: string }[]).map((t) => t.name)).toEqual(
      ['ci-us', 'ci-eu'],
    )
    expect(run.outputs.count).toBe('2')
    expect(run.warnings).toEqual([])
  })

  it('cleanup: the revoked records, as in tokens', async () => {
    platform().seed({ name: 'ci-old', ageMs: 40 * 86_400_000 })
    const dir = jobDir()
    const run = await runAgainst(
      platform(),
      { operation: 'cleanup', olderThan: '30d', keep: '0' },
      { dir },
    )
    expect(run.exitCode).toBe(0)
    expect(readFileSync(run.outputs.tokensFile ?? '', 'utf8')).toBe(run.outputs.tokens)
    expect(run.outputs.count).toBe('1')
  })
})
