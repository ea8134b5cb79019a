import { describe, expect, it } from '@jest/globals'
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { actionMetadata, ROOT } from '../support/runner.mjs'
import { useFakePlatform } from './helpers.js'

const platform = useFakePlatform()
const example = readFileSync(join(ROOT, '.env.example'), 'utf8')

/** .env.example's variables, in order. */
function variables(text: string): [string, string][] {
  return text
    .split('\n')
    .filter((line) => /^[A-Z_]+=/.test(line))
    .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)])
}

describe('npm run local-action (the source, run by @github/local-action)', () => {
  it('.env.example sets every input of action.yml', () => {
    const declared = Object.keys(actionMetadata().inputs).map(
      (name) => `INPUT_${name.toUpperCase()}`,
    )
    const set = variables(example).map(([name]) => name)
    expect(set.filter((name) => name.startsWith('INPUT_')).sort()).toEqual(declared.sort())
  })

  it('runs the action from source with .env.example against the fake platform', async () => {
    const p = platform()
    const env = Object.fromEntries(variables(example))
    Object.assign(env, {
      INPUT_BASEURL: p.baseUrl,
      INPUT_AUTHURL: p.authUrl,
      INPUT_CLIENTSECRET: p.clientSecret,
    })
    const dir = mkdtempSync(join(tmpdir(), 'local-action-'))
    const envFile = join(dir, '.env')
    writeFileSync(
      envFile,
      Object.entries(env)
        .map(([k, v]) => `${k}=${v}`)
        .join('\n'),
    )
    try {
      const { code, output } = await new Promise<{ code: number | null; output: string }>(
        (resolve) => {
          execFile(
            join(ROOT, 'node_modules/.bin/local-action'),
            ['run', ROOT, 'src/main.ts', envFile],
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
      expect(output).toContain("Created gateway token 'local-run'")
      expect([...p.tokens.values()].map((t) => t.name)).toEqual(['local-run'])
      expect(output).not.toContain(p.clientSecret)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)
})
