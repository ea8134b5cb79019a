// gateway-token exec, the committed bundle, against the fake platform: COMMAND run with the token (and never with the client secret), its exit code or 128 + its signal's number, SIGINT and SIGTERM passed on, then the token revoked as --revoke-on-exit says; COMMAND never run when the create failed.
import { describe, expect, it } from '@jest/globals'
import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { node24 } from '../support/node24.mjs'
import { ROOT } from '../support/runner.mjs'
import {
  CLI,
  expectClean,
  onlyToken,
  platformEnv,
  runCli,
  runProgram,
  useCliPlatform,
  useTempDirs,
} from './cli-helpers.js'
import { AUTH, CREATE, revokeLine } from './helpers.js'

const { platform, valueOf } = useCliPlatform()
const tempDir = useTempDirs()

/**
 * `gateway-token exec --name pr-1 FLAGS -- sh -c SCRIPT`, with OUT (a directory where
 * SCRIPT writes what it saw) in the environment; `env` over the platform's connection.
 */
async function exec(
  flags: string[],
  script: string,
  { env = {}, signal }: { env?: Record<string, string>; signal?: 'SIGINT' | 'SIGTERM' } = {},
) {
  const out = tempDir()
  const run = await runCli(['exec', '--name', 'pr-1', ...flags, '--', 'sh', '-c', script], {
    env: { ...platformEnv(platform()), OUT: out, ...env },
    // Once COMMAND says it is ready: the signal goes to gateway-token, not to COMMAND.
    ...(signal === undefined
      ? {}
      : { signal: { send: signal, when: ({ stdout }) => stdout.includes('ready\n') } }),
  })
  /** What SCRIPT wrote to $OUT/<name>, or undefined. */
  const wrote = (name: string) =>
    existsSync(join(out, name)) ? readFileSync(join(out, name), 'utf8') : undefined
  return { ...run, wrote }
}

/** COMMAND's environment, as `env` writes it to $OUT/env: its variables by name. */
const variables = (dump: string | undefined) =>
  Object.fromEntries(
    (dump ?? '')
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  )

describe('gateway-token exec: COMMAND with the token, its exit code, the token revoked', () => {
  it('runs COMMAND with the value in GATEWAY_TOKEN, without the client secret; then revokes it; exits 0', async () => {
    const run = await exec([], 'env > "$OUT/env"; echo ran')
    const token = onlyToken(platform())
    expect(run.code).toBe(0)
    // stdout is COMMAND's: gateway-token writes nothing there itself.
    expect(run.stdout).toBe('ran\n')
    const seen = variables(run.wrote('env'))
    expect(seen.GATEWAY_TOKEN).toBe(valueOf(token.id))
    expect(seen).not.toHaveProperty('PLATFORM_CLIENT_SECRET')
    expect(run.wrote('env')).not.toContain(platform().clientSecret)
    // The rest of the environment is passed on.
    expect(seen.PLATFORM_CLIENT_ID).toBe(platform().clientId)
    expect(token.state).toBe('revoked')
    expect(platform().requestLines()).toEqual([AUTH, CREATE, AUTH, revokeLine(token.id)])
    expectClean(run, platform())
  })

  it("exits with COMMAND's own code, and revokes the token all the same", async () => {
    const run = await exec([], 'exit 3')
    expect(run.code).toBe(3)
    expect(onlyToken(platform()).state).toBe('revoked')
    expectClean(run, platform())
  })

  it('--env names the variable', async () => {
    const run = await exec(['--env', 'MEDIATOR_TOKEN'], 'env > "$OUT/env"')
    const seen = variables(run.wrote('env'))
    expect(run.code).toBe(0)
    expect(seen.MEDIATOR_TOKEN).toBe(valueOf(onlyToken(platform()).id))
    expect(seen).not.toHaveProperty('GATEWAY_TOKEN')
    expectClean(run, platform())
  })

  it('--token-file-env: the path of a 0600 file that holds the value, removed afterwards with its folder', async () => {
    const run = await exec(
      ['--token-file-env', 'TOKEN_FILE'],
      'printf %s "$TOKEN_FILE" > "$OUT/path"; cp "$TOKEN_FILE" "$OUT/copy"; ' +
        'stat -c %a "$TOKEN_FILE" > "$OUT/mode"; env > "$OUT/env"',
    )
    const token = onlyToken(platform())
    const path = run.wrote('path') ?? ''
    expect(run.code).toBe(0)
    expect(run.wrote('copy')).toBe(valueOf(token.id))
    expect(run.wrote('mode')).toBe('600\n')
    expect(run.wrote('env')).not.toContain(valueOf(token.id))
    expect(path).not.toBe('')
    expect(existsSync(path)).toBe(false)
    expect(existsSync(join(path, '..'))).toBe(false)
    expect(run.leftInTmp).toEqual([])
    expect(token.state).toBe('revoked')
    expectClean(run, platform())
  })

  it('--revoke-on-exit failure: kept after COMMAND succeeded, revoked after it failed', async () => {
    const succeeded = await exec(['--revoke-on-exit', 'failure'], 'true')
    expect(succeeded.code).toBe(0)
    expect(onlyToken(platform()).state).toBe('active')
    expect(platform().requests.filter((r) => r.path.includes('/revoke'))).toEqual([])
    platform().tokens.clear()

    const failed = await exec(['--revoke-on-exit', 'failure'], 'exit 5')
    expect(failed.code).toBe(5)
    expect(onlyToken(platform()).state).toBe('revoked')
    expectClean(succeeded, platform())
    expectClean(failed, platform())
  })

  it('--revoke-on-exit never: kept whatever COMMAND did', async () => {
    const run = await exec(['--revoke-on-exit', 'never'], 'exit 4')
    expect(run.code).toBe(4)
    expect(onlyToken(platform()).state).toBe('active')
    expectClean(run, platform())
  })

  it('--if-exists reuse: COMMAND gets the existing token, which is never revoked, even after a failure', async () => {
    const existing = platform().seed({ name: 'pr-1', ageMs: 60_000 })
    const run = await exec(
      ['--if-exists', 'reuse'],
      'printf %s "$GATEWAY_TOKEN" > "$OUT/seen"; exit 3',
    )
    expect(run.code).toBe(3)
    expect(run.wrote('seen')).toBe(valueOf(existing.id) ?? existing.tokenValue)
    expect(onlyToken(platform())).toMatchObject({ id: existing.id, state: 'active' })
    expect(
      platform()
        .requestLines('api')
        .filter((line) => line.includes('/revoke')),
    ).toEqual([])
    expectClean(run, platform())
  })

  it("COMMAND's own arguments after --, --help among them, are COMMAND's", async () => {
    const run = await runCli(
      ['exec', '--name', 'pr-1', '--', 'sh', '-c', 'echo "args: $*"', 'sh', '--help', '--version'],
      { env: platformEnv(platform()) },
    )
    expect(run.code).toBe(0)
    expect(run.stdout).toBe('args: --help --version\n')
    expect(onlyToken(platform()).state).toBe('revoked')
  })

  it('a COMMAND that cannot be started: 127, and the token revoked', async () => {
    const run = await runCli(['exec', '--name', 'pr-1', '--', '/nonexistent/deploy'], {
      env: platformEnv(platform()),
    })
    expect(run.code).toBe(127)
    expect(run.stderr).toContain('error: could not run /nonexistent/deploy')
    expect(onlyToken(platform()).state).toBe('revoked')
    expectClean(run, platform())
  })
})

describe('gateway-token exec: signals', () => {
  // COMMAND says it got the signal, and exits with a code of its own for each.
  const TRAPPING =
    'trap \'echo TERM > "$OUT/got"; exit 42\' TERM; trap \'echo INT > "$OUT/got"; exit 43\' INT; ' +
    'echo ready; while :; do sleep 0.1; done'

  it.each([
    ['SIGTERM', 'TERM', 42],
    ['SIGINT', 'INT', 43],
  ] as const)(
    '%s to gateway-token is passed on to COMMAND, whose code it exits with, and the token is revoked',
    async (signal, trapped, code) => {
      const run = await exec([], TRAPPING, { signal })
      expect(run.signal).toBeNull()
      expect(run.code).toBe(code)
      expect(run.wrote('got')).toBe(`${trapped}\n`)
      const token = onlyToken(platform())
      expect(token.state).toBe('revoked')
      expect(platform().requestLines().slice(-1)).toEqual([revokeLine(token.id)])
      expectClean(run, platform())
    },
  )

  it('a COMMAND that a passed-on SIGTERM ends: 128 + 15, the token revoked', async () => {
    const run = await exec([], 'echo ready; while :; do sleep 0.1; done', { signal: 'SIGTERM' })
    expect(run.code).toBe(143)
    expect(onlyToken(platform()).state).toBe('revoked')
    expectClean(run, platform())
  })

  it.each([
    ['SIGTERM', 'TERM', 143],
    ['SIGKILL', 'KILL', 137],
  ])('a COMMAND ended by %s: 128 + its number, revoked as a failure', async (_, name, code) => {
    const run = await exec(['--revoke-on-exit', 'failure'], `kill -${name} $$`)
    expect(run.code).toBe(code)
    expect(onlyToken(platform()).state).toBe('revoked')
    expectClean(run, platform())
  })
})

describe('gateway-token exec: COMMAND never runs when the create failed, exit 1', () => {
  const MARK = 'touch "$OUT/ran"'

  it('credentials the platform refuses', async () => {
    const run = await exec([], MARK, { env: { PLATFORM_CLIENT_SECRET: 'cs_not-the-secret-0123' } })
    expect([run.code, run.stdout]).toEqual([1, ''])
    expect(run.wrote('ran')).toBeUndefined()
    expect(run.stderr).toMatch(/^error: create failed: authentication was refused/m)
    expect(platform().tokens.size).toBe(0)
    expectClean(run, platform())
  })

  it('a create the platform refuses', async () => {
    platform().role = 'viewer'
    const run = await exec([], MARK)
    expect([run.code, run.stdout]).toEqual([1, ''])
    expect(run.wrote('ran')).toBeUndefined()
    expect(platform().tokens.size).toBe(0)
    expectClean(run, platform())
  })

  it('a create whose answer was lost, as the post step does: the token found and revoked', async () => {
    platform().fail({
      server: 'api',
      method: 'POST',
      path: '/api/tokens',
      commit: true,
      drop: 'reset',
    })
    // The main step cannot look (one list per attempt, retries 1): whether it was made is unknown.
    platform().fail({ server: 'api', method: 'GET', path: '/api/tokens', status: 503, times: 2 })
    const run = await exec(['--retries', '1'], MARK)
    expect([run.code, run.stdout]).toEqual([1, ''])
    expect(run.wrote('ran')).toBeUndefined()
    expect(run.stderr).toContain("whether token 'pr-1' was created is unknown")
    const token = onlyToken(platform())
    expect(run.stderr).toContain(`Revoked gateway token 'pr-1' (${token.id}) at the end of the job`)
    expect(token.state).toBe('revoked')
    expect(platform().faultsLeft()).toBe(0)
    expectClean(run, platform())
  })

  it('bad usage: exit 2, nothing sent, COMMAND never run', async () => {
    const run = await exec(['--if-exists', 'sometimes'], MARK)
    expect([run.code, run.stdout]).toEqual([2, ''])
    expect(run.wrote('ran')).toBeUndefined()
    expect(platform().requests).toEqual([])
  })
})

describe("the README's line for pipelines outside GitHub Actions", () => {
  it('runs as it is: ./deploy.sh gets the token in GATEWAY_TOKEN, revoked when it ends', async () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8')
    const section = readme.slice(readme.indexOf('\n## Outside GitHub Actions\n'))
    const line = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? ''
    expect(line).toContain('gateway-token exec')
    const dir = tempDir()
    writeFileSync(join(dir, 'gateway-token'), `#!/bin/sh\nexec '${node24()}' '${CLI}' "$@"\n`)
    writeFileSync(join(dir, 'deploy.sh'), '#!/bin/sh\nprintf %s "$GATEWAY_TOKEN" > deployed\n')
    for (const file of ['gateway-token', 'deploy.sh']) chmodSync(join(dir, file), 0o755)
    const tmp = tempDir()
    const env = { ...platformEnv(platform()), PATH: `${dir}:${process.env.PATH ?? ''}` }
    const run = await runProgram(
      ['sh', '-ec', line],
      { ...env, BUILD_NUMBER: '7', TMPDIR: tmp },
      dir,
    )
    const token = onlyToken(platform())
    expect([run.code, token.name, token.state]).toEqual([0, 'deploy-7', 'revoked'])
    expect(readFileSync(join(dir, 'deployed'), 'utf8')).toBe(valueOf(token.id))
    expectClean({ ...run, leftInTmp: readdirSync(tmp) }, platform())
  })
})
