// `npm run demo`, the first thing a new user runs: it works, shows the post step, and shows no secret.
import { describe, expect, it } from '@jest/globals'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { ROOT } from '../support/runner.mjs'

describe('npm run demo', () => {
  it('runs a whole job: a token made, handed on in a file, listed, an old one revoked, and the post step', async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['test/demo.mjs'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
    })
    expect(stdout).toContain("Created gateway token 'demo-mediator'")
    expect(stdout).toMatch(/tokenFile = \S+gateway-token-[0-9a-f]{32}\n/)
    // The value is shown masked everywhere: outputs, environment, log.
    expect(stdout).toContain('tokenValue = ***')
    expect(stdout).toContain('MEDIATOR_GATEWAY_TOKEN = ***')
    expect(stdout).toMatch(/Would revoke gateway token 'staging-eu' \(\S+\), 40d/)
    expect(stdout).toContain("Input 'tokenId' must be a UUID")
    expect(stdout).toMatch(/Deleted the token file \S+gateway-token-[0-9a-f]{32}\./)
    expect(stdout).toMatch(/Revoked gateway token 'demo-mediator' \(\S+\) at the end of the job/)
    expect(stdout).toContain('The token file is gone: true.')
    expect(stdout).toContain('The token created by the first step is now revoked.')
    // No client secret (cs_...), access or gateway token (JWT-like, eyJ...) in clear.
    expect(stdout).not.toMatch(/cs_[A-Za-z0-9_-]{8,}|eyJ[A-Za-z0-9_-]{8,}/)
  }, 90_000)
})
