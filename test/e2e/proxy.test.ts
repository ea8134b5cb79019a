import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { startConnectProxy } from '../support/connect-proxy.mjs'
import { FakePlatform, startFakePlatform } from '../support/fake-platform.mjs'
import { ROOT, runAction } from '../support/runner.mjs'
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
    expect(expectCleanFailure(result)).toMatch(
      /got no answer: host (not found \(ENOTFOUND\)|name lookup failed \(EAI_AGAIN\))\. Check the authUrl input \(https:\/\/platform\.test:\d+\) and that the runner can reach that host: a self-hosted runner may need a firewall rule or a proxy \(HTTPS_PROXY, NO_PROXY\)\.$/,
    )
    expect(proxy.tunnels).toEqual([])
  })
})
