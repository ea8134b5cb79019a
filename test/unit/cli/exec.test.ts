// exec: the main step, COMMAND run with the token, then the post step, in one process; against nock, with a real COMMAND.
import { describe, expect, it } from '@jest/globals'
import nock from 'nock'
import { existsSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { authOk as authFor, created, ENV as CONNECTED } from '../../fixtures/command-line.js'
import { gatewayToken, revoked as revoke, VALUE } from '../../fixtures/command-line.js'
import { TOKEN_ID } from '../../fixtures/inputs.js'
import { API, AUTH, record, useNock } from '../../fixtures/nock-platform.js'

useNock()

// COMMAND is found on the PATH.
const ENV = { PATH: process.env.PATH, ...CONNECTED }
// The main step authenticates, and the post step again.
const authOk = () => authFor(2)

/** Runs `gateway-token exec` with `flags`, then COMMAND: node running `script`. */
async function exec(flags: string[], script: string) {
  const args = ['exec', '--name', 'pr-1', ...flags, '--', process.execPath, '-e', script]
  return gatewayToken(args, { env: ENV })
}

describe('exec', () => {
  it('runs COMMAND with the token in GATEWAY_TOKEN and not the API client’s secret, then revokes it; COMMAND’s exit code', async () => {
    authOk()
    created()
    revoke()
    const check = `process.exit(process.env.GATEWAY_TOKEN === '${VALUE}' && !process.env.PLATFORM_CLIENT_SECRET ? 7 : 9)`
    const run = await exec([], check)
    expect(run.code).toBe(7)
    expect(run.stderr).toContain(
      `Revoked gateway token 'pr-1' (${TOKEN_ID}) at the end of the job (revokeOnExit).`,
    )
    expect(run.stderr).not.toContain(VALUE)
    // Where COMMAND finds it; not the action's "for later steps (masked)": nothing masks it.
    expect(run.stderr).toContain(
      `Running ${process.execPath} with the token value in GATEWAY_TOKEN.`,
    )
    expect(run.stderr).not.toContain('later steps')
    expect(nock.pendingMocks()).toEqual([])
  })

  // Linux refuses a variable over 128 KiB (MAX_ARG_STRLEN); other systems may take it.
  const onLinux = process.platform === 'linux' ? it : it.skip
  onLinux(
    'a value too large for an environment: COMMAND not run (127), the token revoked all the same',
    async () => {
      authOk()
      nock(API)
        .post('/api/tokens')
        .reply(201, record({ name: 'pr-1', tokenValue: 'x'.repeat(200 * 1024) }))
      revoke()
      const run = await exec([], 'process.exit(0)')
      expect(run.code).toBe(127)
      expect(run.stderr).toMatch(
        /^error: could not run \S*node: spawn E2BIG\. The token is too large for a variable: give --token-file-env VAR\.$/m,
      )
      expect(run.stderr).not.toContain('x'.repeat(100))
      expect(nock.pendingMocks()).toEqual([])
    },
  )

  it('--env names the variable, by the rules of envName', async () => {
    authOk()
    created()
    revoke()
    const run = await exec(
      ['--env', 'MEDIATOR_TOKEN'],
      `process.exit(process.env.MEDIATOR_TOKEN ? 0 : 9)`,
    )
    expect(run.code).toBe(0)
    const refused = await exec(['--env', 'PATH'], 'process.exit(0)')
    expect(refused.code).toBe(2)
    expect(refused.stderr).toMatch(/^error: --env must not be PATH/m)
  })

  it('--token-file-env: the path of a 0600 file that holds the value, removed afterwards', async () => {
    authOk()
    created()
    revoke()
    const script = `const fs = require('fs'); const p = process.env.TOKEN_PATH; process.exit(fs.readFileSync(p, 'utf8') === '${VALUE}' && (fs.statSync(p).mode & 0o777) === 0o600 ? 0 : 9)`
    const run = await exec(['--token-file-env', 'TOKEN_PATH'], script)
    expect(run.code).toBe(0)
    const lines = run.stderr.split('\n')
    expect(lines.some((line) => line.includes('Deleted the token file'))).toBe(true)
    expect(lines).toContain(`Running ${process.execPath} with the token file's path in TOKEN_PATH.`)
  })

  it('--revoke-on-exit failure keeps the token after COMMAND succeeded, and never sends a revoke', async () => {
    authOk()
    created()
    const run = await exec(['--revoke-on-exit', 'failure'], 'process.exit(0)')
    expect(run.code).toBe(0)
    expect(nock.pendingMocks()).toEqual([expect.stringContaining(AUTH)])
  })

  it('--revoke-on-exit never keeps the token after COMMAND failed, and never sends a revoke', async () => {
    authOk()
    created()
    const run = await exec(['--revoke-on-exit', 'never'], 'process.exit(3)')
    expect(run.code).toBe(3)
    expect(nock.pendingMocks()).toEqual([expect.stringContaining(AUTH)])
    // What happened, in the flag's words: not the post step's "The job succeeded".
    expect(run.stderr.trimEnd().split('\n').at(-1)).toBe(
      `${process.execPath} ended (exit code 3): the token stays active (--revoke-on-exit never).`,
    )
    expect(run.stderr).not.toContain('The job succeeded')
  })

  it('--revoke-on-exit never says where a token a lost earlier attempt made would be: nobody holds it', async () => {
    authOk()
    nock(API).post('/api/tokens').reply(500, { error: 'oops' })
    nock(API).get('/api/tokens').reply(200, [])
    created()
    const run = await exec(['--revoke-on-exit', 'never'], 'process.exit(0)')
    expect(run.code).toBe(0)
    const last = run.stderr.trimEnd().split('\n').at(-1)
    expect(last).toMatch(
      /^warning: \S+ ended \(exit code 0\): the token stays active \(--revoke-on-exit never\)\. /,
    )
    expect(last).toContain(`An active token named 'pr-1' other than ${TOKEN_ID} created after `)
  })

  it('--revoke-on-exit never deletes the token file all the same', async () => {
    authOk()
    created()
    const script = 'process.exit(require("fs").existsSync(process.env.TOKEN_PATH) ? 0 : 9)'
    const run = await exec(['--revoke-on-exit', 'never', '--token-file-env', 'TOKEN_PATH'], script)
    expect(run.code).toBe(0)
    expect(run.stderr).toMatch(/^Deleted the token file \S+\.$/m)
  })

  it('--revoke-on-exit never still revokes a token no COMMAND ever held: one not found, 127', async () => {
    authOk()
    created()
    revoke()
    const args = ['exec', '--name', 'pr-1', '--revoke-on-exit', 'never', '--', 'no-such-command-x']
    const { code, stderr } = await gatewayToken(args, { env: ENV })
    expect(code).toBe(127)
    expect(stderr).toMatch(/^error: could not run no-such-command-x: spawn \S+ ENOENT\.$/m)
    expect(stderr).not.toContain('Running no-such-command-x')
    expect(nock.pendingMocks()).toEqual([])
  })

  it('--revoke-on-exit failure revokes after COMMAND failed, and exits with its code', async () => {
    authOk()
    created()
    revoke()
    expect((await exec(['--revoke-on-exit', 'failure'], 'process.exit(3)')).code).toBe(3)
    expect(nock.pendingMocks()).toEqual([])
  })

  it('a COMMAND ended by a signal: 128 + its number', async () => {
    authOk()
    created()
    revoke()
    expect((await exec([], "process.kill(process.pid, 'SIGTERM')")).code).toBe(128 + 15)
  })

  it('passes a SIGTERM sent to gateway-token on to COMMAND, and exits with the code COMMAND chose', async () => {
    authOk()
    created()
    revoke()
    const ready = `${tmpdir()}/exec-ready-${process.pid}`
    // The signal as the process gets it (jest's process is not the one the kernel signals),
    // once: a second one, during the revoke, would cancel the post step.
    const poll = setInterval(() => {
      if (!existsSync(ready)) return
      clearInterval(poll)
      process.emit('SIGTERM', 'SIGTERM')
    }, 20)
    try {
      const script = `process.on('SIGTERM', () => process.exit(42)); require('fs').writeFileSync('${ready}', ''); setTimeout(() => process.exit(9), 10000)`
      expect((await exec([], script)).code).toBe(42)
    } finally {
      clearInterval(poll)
      rmSync(ready, { force: true })
    }
    expect(nock.pendingMocks()).toEqual([])
  })

  it('never starts COMMAND after a signal that came once the token was made: 128 + its number, revoked', async () => {
    authOk()
    created()
    revoke()
    const marker = `${tmpdir()}/exec-ran-early-${process.pid}`
    const err = (text: string) => {
      // The main step's last line: the token is made, COMMAND not started yet.
      if (text.startsWith('It will be revoked at the end')) process.emit('SIGINT', 'SIGINT')
    }
    const script = `require('fs').writeFileSync('${marker}', '')`
    const args = ['exec', '--name', 'pr-1', '--', process.execPath, '-e', script]
    const { code, stderr } = await gatewayToken(args, { env: ENV, err })
    expect(code).toBe(128 + 2)
    expect(existsSync(marker)).toBe(false)
    expect(stderr).toMatch(/^error: \S*node was not started: SIGINT came first\.$/m)
    expect(nock.pendingMocks()).toEqual([])
  })

  it('a signal while the token is made cancels the create: exit 1, COMMAND never started', async () => {
    authOk()
    nock(API)
      .post('/api/tokens')
      .delay(50)
      .reply(201, () => {
        process.emit('SIGINT', 'SIGINT')
        return record({ name: 'pr-1' })
      })
    const marker = `${tmpdir()}/exec-ran-cancelled-${process.pid}`
    const run = await exec([], `require('fs').writeFileSync('${marker}', '')`)
    expect(run.code).toBe(1)
    expect(existsSync(marker)).toBe(false)
    expect(run.stderr).toMatch(/^error: create failed: The step was cancelled \(SIGINT\)/m)
  })

  it('never runs COMMAND when the create failed: exit 1', async () => {
    authOk()
    nock(API).post('/api/tokens').reply(422, { error: 'name taken' })
    const marker = `${tmpdir()}/exec-ran-${process.pid}`
    const run = await exec([], `require('fs').writeFileSync('${marker}', '')`)
    expect(run.code).toBe(1)
    expect(existsSync(marker)).toBe(false)
    expect(run.stderr).toMatch(/^error: create failed: .*422/m)
  })

  it('a COMMAND that cannot be started: 127, and the token revoked', async () => {
    authOk()
    created()
    revoke()
    const args = ['exec', '--name', 'pr-1', '--', '/nonexistent/helm']
    const { code, stderr } = await gatewayToken(args, { env: ENV })
    expect(code).toBe(127)
    expect(stderr).toContain(
      'error: could not run /nonexistent/helm: spawn /nonexistent/helm ENOENT',
    )
    expect(nock.pendingMocks()).toEqual([])
  })
})
