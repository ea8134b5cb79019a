import { describe, expect, it } from '@jest/globals'
import { execFile, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { actionMetadata, ROOT } from '../support/runner.mjs'

const example = readFileSync(join(ROOT, '.env.example'), 'utf8')

/** `npm run local-action`'s arguments, from package.json: run, the dir, main, .env, --post, post. */
function localActionArguments(): string[] {
  const scripts = (
    JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>
    }
  ).scripts
  return (scripts['local-action'] ?? '').split(' ').slice(1)
}

/** A token's state on the fake platform of the test (8801, 8802), asked over its API. */
async function tokenState(id: string): Promise<string | undefined> {
  const auth = await fetch('http://127.0.0.1:8801/idp/identity/resources/auth/v2/api-token', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ clientId: 'ci-deployer', secret: 'local-fake-secret' }),
  })
  const { access_token: accessToken } = (await auth.json()) as { access_token: string }
  const list = await fetch('http://127.0.0.1:8802/api/tokens', {
    headers: { Authorization: `Bearer ${accessToken}` },
  })
  const tokens = (await list.json()) as { id: string; state: string }[]
  return tokens.find((token) => token.id === id)?.state
}

/** .env.example's variables, in order. */
function variables(text: string): [string, string][] {
  return text
    .split('\n')
    .filter((line) => /^[A-Z_]+=/.test(line))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)])
}

describe('npm run local-action (the source, run by @github/local-action)', () => {
  it('runs the post step too: package.json names its module', () => {
    expect(localActionArguments()).toEqual([
      'run',
      '.',
      'src/index.ts',
      '.env',
      '--post',
      'src/post.ts',
    ])
  })

  it('.env.example sets every input of action.yml', () => {
    const declared = Object.keys(actionMetadata().inputs).map(
      (name) => `INPUT_${name.toUpperCase()}`,
    )
    const set = variables(example).map(([name]) => name)
    expect(set.filter((name) => name.startsWith('INPUT_')).sort()).toEqual(declared.sort())
  })

  it(".env.example gives the optional inputs action.yml's defaults (jobStatus: a job that succeeded)", () => {
    const set = Object.fromEntries(variables(example))
    for (const [name, input] of Object.entries(actionMetadata().inputs)) {
      const value = set[`INPUT_${name.toUpperCase()}`]
      // name is set for the create the example runs; the others are left at their defaults.
      if (name === 'jobStatus') expect(value).toBe('success')
      else if (name !== 'name' && input.default !== undefined)
        expect([name, value]).toEqual([name, input.default])
    }
  })

  it('runs the action and its post step from source, as CONTRIBUTING says: the fake platform on 8801 and 8802, .env.example as .env with revokeOnExit', async () => {
    // `npm run fake-platform -- 8801 8802`, with the secret .env.example holds.
    const platform = spawn(
      process.execPath,
      [join(ROOT, 'test/support/fake-platform.mjs'), '8801', '8802'],
      {
        env: { PATH: process.env.PATH ?? '', FAKE_PLATFORM_CLIENT_SECRET: 'local-fake-secret' },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    )
    const dir = mkdtempSync(join(tmpdir(), 'local-action-'))
    try {
      const started = await new Promise<string>((resolve, reject) => {
        platform.stdout.setEncoding('utf8').once('data', resolve)
        platform.once('exit', (code) => {
          reject(new Error(`the fake platform exited (${code}): are ports 8801 and 8802 free?`))
        })
      })
      expect(JSON.parse(started)).toEqual({
        clientId: 'ci-deployer',
        clientSecret: 'local-fake-secret',
        baseUrl: 'http://127.0.0.1:8802',
        authUrl: 'http://127.0.0.1:8801',
      })
      const envFile = join(dir, '.env')
      // As CONTRIBUTING says to try the post step: revokeOnExit on.
      writeFileSync(envFile, example.replace(/^INPUT_REVOKEONEXIT=.*$/m, 'INPUT_REVOKEONEXIT=true'))
      const { code, output } = await new Promise<{ code: number | null; output: string }>(
        (resolve) => {
          execFile(
            join(ROOT, 'node_modules/.bin/local-action'),
            // The arguments of `npm run local-action`, with this .env.
            [...localActionArguments().slice(0, 3), envFile, ...localActionArguments().slice(4)],
            {
              cwd: ROOT,
              env: {
                PATH: `${join(ROOT, 'node_modules/.bin')}:${process.env.PATH ?? ''}`,
                HOME: dir,
              },
              timeout: 60_000,
            },
            (error, stdout, stderr) => {
              resolve({
                code: error ? (typeof error.code === 'number' ? error.code : 1) : 0,
                output: stdout + stderr,
              })
            },
          )
        },
      )
      expect(code).toBe(0)
      const id = /Created gateway token 'local-run' \(([0-9a-f-]{36})\)/.exec(output)?.[1] ?? ''
      expect(id).not.toBe('')
      // The post step ran after it, in the same process, with the state the main step saved.
      expect(output).toContain(
        `Revoked gateway token 'local-run' (${id}) at the end of the job (revokeOnExit).`,
      )
      expect(output.indexOf('Running Post Step')).toBeGreaterThan(output.indexOf(id))
      expect(await tokenState(id)).toBe('revoked')
      expect(output).not.toContain('local-fake-secret')
    } finally {
      platform.kill()
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)
})
