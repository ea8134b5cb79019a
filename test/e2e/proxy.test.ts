import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { startConnectProxy } from '../support/connect-proxy.mjs'
import { FakePlatform, startFakePlatform } from '../support/fake-platform.mjs'
import { ROOT, runAction } from '../support/runner.mjs'
import { platformEnv, runCli } from './cli-helpers.js'
import { expectCleanFailure } from './helpers.js'

const TLS = join(ROOT, 'test/support/tls')
let platform: FakePlatform
let proxy: Awaited<ReturnType<typeof startConnectProxy>>

beforeEach(async () => {
  // HTTPS on a host name that only the proxy can reach, as behind a corporate proxy.
  platform = await startFakePlatform({
    host: 'platform.test',
    tls: {
      key: readFileSync(join(TLS, 'platform.test.key')),
      cert: readFileSync(join(TLS, 'platform.test.crt')),
    },
  })
  proxy = await startConnectProxy()
})
afterEach(async () => {
  await Promise.all([platform.close(), proxy.close()])
})

const run = (env: Record<string, string>) =>
  runAction({
    inputs: {
      ...platform.connectionInputs(),
      operation: 'create',
      name: 'behind-a-proxy',
      retries: '0',
    },
    env: { NODE_EXTRA_CA_CERTS: join(TLS, 'platform.test.crt'), ...env },
  })

describe('proxies (the committed bundle on Node 24)', () => {
  it('sends every request through the proxy in HTTPS_PROXY', async () => {
    const result = await run({ HTTPS_PROXY: proxy.url })
    expect(result.exitCode).toBe(0)
    expect(result.outputs.name).toBe('behind-a-proxy')
    const port = (url: string) => new URL(url).port
    expect(new Set(proxy.tunnels)).toEqual(
      new Set([
        `platform.test:${port(platform.authUrl)}`,
        `platform.test:${port(platform.baseUrl)}`,
      ]),
    )
  })

  it('goes direct for a host in NO_PROXY (which, here, cannot be reached without the proxy)', async () => {
    const result = await run({ HTTPS_PROXY: proxy.url, NO_PROXY: 'platform.test' })
    // The words of each failure: the golden messages of the unit tests (test/fixtures/golden.ts).
    const message = expectCleanFailure(result)
    expect(message).toMatch(/got no answer: .*\((ENOTFOUND|EAI_AGAIN)\)/)
    expect(message).toMatch(/Check the authUrl input \(https:\/\/platform\.test:\d+\)/)
    expect(message).toContain('HTTPS_PROXY, NO_PROXY')
    expect(proxy.tunnels).toEqual([])
  })
})

describe('proxy and TLS failures say what to fix (issue 18, case 7)', () => {
  it('a proxy that answers 407 is named, with its credentials to check, and not retried', async () => {
    await proxy.close()
    proxy = await startConnectProxy({ credentials: 'ci:right-password' })
    const url = new URL(proxy.url)
    url.username = 'ci'
    url.password = 'wrong-password'
    const result = await runAction({
      inputs: { ...platform.connectionInputs(), operation: 'list' },
      env: { NODE_EXTRA_CA_CERTS: join(TLS, 'platform.test.crt'), HTTPS_PROXY: url.href },
    })
    const message = expectCleanFailure(result)
    expect(message).toMatch(
      /^list failed: authentication failed: POST https:\/\/platform\.test:\d+\//,
    )
    expect(message).toContain('got no answer: the proxy answered 407')
    expect(message).toContain('Check the user name and password in HTTPS_PROXY')
    expect(message).not.toContain('ECONNRESET')
    expect(message).not.toContain('wrong-password')
    // Sent once, though retries is 3: no retry changes the proxy's mind.
    expect(proxy.tunnels).toHaveLength(1)
  })

  it('a certificate the runner does not trust names the host and NODE_EXTRA_CA_CERTS, and nothing Node suggests', async () => {
    const result = await runAction({
      inputs: { ...platform.connectionInputs(), operation: 'list', retries: '0' },
      env: { HTTPS_PROXY: proxy.url },
    })
    const message = expectCleanFailure(result)
    expect(message).toContain('got no answer: its certificate is self-signed')
    expect(message).toContain('(DEPTH_ZERO_SELF_SIGNED_CERT)')
    expect(message).toMatch(/does not trust the certificate of platform\.test:\d+\./)
    expect(message).toContain('NODE_EXTRA_CA_CERTS=')
    expect(message).not.toMatch(/--[a-z-]+|NODE_TLS_REJECT_UNAUTHORIZED/)
  })
})

describe('gateway-token behind the same proxy and CA (docs/CLI.md, "The connection")', () => {
  const cli = (env: Record<string, string>) =>
    runCli(['list', '--retries', '0', '--json'], { env: { ...platformEnv(platform), ...env } })

  it('goes through HTTPS_PROXY and trusts the CA in NODE_EXTRA_CA_CERTS', async () => {
    const ca = join(TLS, 'platform.test.crt')
    const run = await cli({ HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: ca })
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout)).toEqual([])
    expect(proxy.tunnels).toHaveLength(2)
  })

  it('without the CA, says which certificate and what to set, exit 1, nothing on stdout', async () => {
    const run = await cli({ HTTPS_PROXY: proxy.url })
    expect(run).toMatchObject({ code: 1, stdout: '' })
    expect(run.stderr).toMatch(/does not trust the certificate of platform\.test:\d+\./)
    expect(run.stderr).toContain('NODE_EXTRA_CA_CERTS=')
  })
})
