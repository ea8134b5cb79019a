// The curl recipes of bench/ (docs/FROM-CURL.md): they work against the fake platform, and
// no secret is ever on a command line of the programs they start.
import { describe, expect, it } from '@jest/globals'
import { execFile, execFileSync } from 'node:child_process'
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { recipeEnv } from '../../bench/lib.mjs'
import { ROOT } from '../support/runner.mjs'
import { CREATE, LIST, useFakePlatform } from './helpers.js'

const platform = useFakePlatform()

/**
 * Runs a recipe with curl and jq behind wrappers that write down each command line before
 * running the real program; returns its exit code and every command line of theirs. Not
 * synchronously: the fake platform answers from this process.
 */
async function runRecipe(script: string, extra: Record<string, string>) {
  const dir = mkdtempSync(join(tmpdir(), 'curl-recipe-'))
  try {
    const log = join(dir, 'argv.log')
    for (const tool of ['curl', 'jq']) {
      const real = execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim()
      const wrapper = join(dir, tool)
      writeFileSync(
        wrapper,
        `#!/bin/sh\nprintf '%s\\n' "${tool} $*" >> '${log}'\nexec '${real}' "$@"\n`,
      )
      chmodSync(wrapper, 0o755)
    }
    const env = recipeEnv(platform(), extra)
    const ran = await new Promise<{ status: number; stderr: string }>((resolve) => {
      const options = { env: { ...env, PATH: `${dir}:${env.PATH}` }, encoding: 'utf8' as const }
      execFile('bash', [join(ROOT, script)], options, (error, _, stderr) => {
        resolve({ status: error === null ? 0 : Number(error.code ?? 1), stderr })
      })
    })
    return { ...ran, argv: readFileSync(log, 'utf8') }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

describe('the curl recipes of bench/', () => {
  it('curl-create.sh creates a token, the client secret and the access token on no command line', async () => {
    const run = await runRecipe('bench/curl-create.sh', { TOKEN_NAME: 'recipe' })
    expect([run.status, run.stderr]).toEqual([0, ''])
    expect([...platform().tokens.values()].map((t) => t.name)).toEqual(['recipe'])
    expect(platform().requestLines().slice(1)).toEqual([CREATE])
    expect(run.argv).toContain('--data @-')
    for (const secret of platform().secrets()) expect(run.argv).not.toContain(secret)
  })

  it('curl-cleanup.sh revokes the old tokens, the secrets on no command line', async () => {
    const old = platform().seed({ name: 'ci-a', ageMs: 3 * 86_400_000 })
    const young = platform().seed({ name: 'ci-b', ageMs: 60_000 })
    const run = await runRecipe('bench/curl-cleanup.sh', { OLDER_THAN_DAYS: '1' })
    expect([run.status, run.stderr]).toEqual([0, ''])
    expect(platform().requestLines().slice(1, 2)).toEqual([LIST])
    expect(platform().tokens.get(old.id)?.state).toBe('revoked')
    expect(platform().tokens.get(young.id)?.state).toBe('active')
    // The platform forgets a revoked token's value: it is a secret of this run all the same.
    for (const secret of [...platform().secrets(), old.tokenValue ?? ''].filter(Boolean))
      expect(run.argv).not.toContain(secret)
  })
})
