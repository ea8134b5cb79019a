import { afterEach, describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { startFakePlatform, type FakePlatform } from '../support/fake-platform.mjs'
import { ROOT, runAction, type ActionRun } from '../support/runner.mjs'
import {
  AUTH,
  CREATE,
  expectCleanFailure,
  expectNoLeaks,
  LIST,
  useFakePlatform,
} from './helpers.js'

// A new user's first runs (issue 25): what fails before a create leaves, or is refused,
// ends the post step with one line and no request; only an unknown outcome is looked for.
const platform = useFakePlatform()
const TLS = join(ROOT, 'test/support/tls')
const NOTHING_MADE =
  /^This step's create of 'm1' made no token, as (its request never left the runner whole|the platform refused it)[^\n]*: nothing to revoke at the end of the job \(revokeOnExit\)\.\n$/

/** A port on 127.0.0.1 that nothing listens on: a refused connection. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise((resolve) => server.close(resolve))
  return typeof address === 'object' && address !== null ? address.port : 0
}

let tlsPlatform: FakePlatform | undefined
afterEach(async () => {
  await tlsPlatform?.close()
  tlsPlatform = undefined
})

/** The inputs and what to set up, for each way a first run goes wrong. */
const CASES: [string, () => Promise<Record<string, string>>][] = [
  [
    'a refused authentication (wrong clientSecret)',
    () => Promise.resolve({ ...platform().connectionInputs(), clientSecret: 'not-the-secret' }),
  ],
  [
    'an unknown host',
    () =>
      Promise.resolve({
        ...platform().connectionInputs(),
        authUrl: 'https://no-such-host.invalid',
      }),
  ],
  [
    'a refused connection',
    async () => ({
      ...platform().connectionInputs(),
      authUrl: `http://127.0.0.1:${await closedPort()}`,
    }),
  ],
  [
    'an untrusted certificate',
    async () => {
      tlsPlatform = await startFakePlatform({
        tls: {
          key: readFileSync(join(TLS, 'platform.test.key')),
          cert: readFileSync(join(TLS, 'platform.test.crt')),
        },
      })
      return tlsPlatform.connectionInputs()
    },
  ],
  [
    'an https:// baseUrl whose port speaks plain HTTP',
    () => {
      const inputs = platform().connectionInputs()
      return Promise.resolve({ ...inputs, baseUrl: inputs.baseUrl.replace(/^http:/, 'https:') })
    },
  ],
  ...[400, 403, 404, 409, 422].map((status): (typeof CASES)[number] => [
    `a create answered ${status}`,
    () => {
      platform().fail({ method: 'POST', path: '/api/tokens', status })
      return Promise.resolve(platform().connectionInputs())
    },
  ]),
  [
    'a create still throttled when its retries ran out',
    () => {
      platform().fail({ method: 'POST', path: '/api/tokens', status: 429, times: 2 })
      return Promise.resolve(platform().connectionInputs())
    },
  ],
]

/** The main step, then the post step with the state it left, as the runner runs them. */
async function mainThenPost(inputs: Record<string, string>, jobStatus: 'success' | 'failure') {
  const main = await runAction({ inputs, jobStatus: 'failure' })
  const before = platform().requests.length + (tlsPlatform?.requests.length ?? 0)
  const post = await runAction({ step: 'post', inputs, state: main.state, jobStatus })
  const after = platform().requests.length + (tlsPlatform?.requests.length ?? 0)
  return { main, post, sent: after - before }
}

describe('ordinary failures: the post step sends nothing and warns of nothing (the committed bundle)', () => {
  describe.each([
    ['true', 'success'],
    ['failure', 'failure'],
  ] as const)('revokeOnExit: %s (job %s)', (revokeOnExit, jobStatus) => {
    it.each(CASES)('%s', async (_, setUp) => {
      const inputs = {
        ...(await setUp()),
        operation: 'create',
        name: 'm1',
        revokeOnExit,
        retries: '1',
      }
      const { main, post, sent } = await mainThenPost(inputs, jobStatus)
      expectCleanFailure(main)
      expect(post.exitCode).toBe(0)
      expect(sent).toBe(0)
      expect(post.warnings).toEqual([])
      // One line, and nothing masked: the secret is not even read.
      expect(post.log).toMatch(NOTHING_MADE)
      expect(post.masked).toEqual([])
    })
  })

  it('a bad input: the main step sends nothing, and the post step says so in one line', async () => {
    const inputs = {
      ...platform().connectionInputs(),
      operation: 'create',
      name: 'm1',
      revokeOnExit: 'true',
      timeout: 'soon',
    }
    const { main, post, sent } = await mainThenPost(inputs, 'success')
    expect(expectCleanFailure(main)).toMatch(/^Input 'timeout' must be/)
    expect(platform().requests).toEqual([])
    expect(sent).toBe(0)
    expect(post.warnings).toEqual([])
    expect(post.log).toBe(
      'This step created no token (no create was sent, or an existing token was reused): nothing to revoke at the end of the job (revokeOnExit).\n',
    )
  })
})

describe('a certificate the runner does not trust is not retried (the committed bundle)', () => {
  it('with default inputs, the main step makes one TLS handshake per URL and names NODE_EXTRA_CA_CERTS', async () => {
    tlsPlatform = await startFakePlatform({
      tls: {
        key: readFileSync(join(TLS, 'platform.test.key')),
        cert: readFileSync(join(TLS, 'platform.test.crt')),
      },
    })
    const run = await runAction({
      inputs: { ...tlsPlatform.connectionInputs(), operation: 'list' },
    })
    expect(expectCleanFailure(run)).toContain('NODE_EXTRA_CA_CERTS')
    // Authentication comes first, and fails: the API is never reached.
    expect(tlsPlatform.connections).toEqual({ auth: 1, api: 0 })
    expect(run.log).not.toContain('retrying')
  })
})

describe('a create whose outcome is unknown: the post step looks, within its bound (the committed bundle)', () => {
  const inputs = () => ({
    ...platform().connectionInputs(),
    operation: 'create',
    name: 'pr-5',
    revokeOnExit: 'true',
    retries: '0',
  })

  it('a list that keeps answering 503: the search ends with totalTimeout, warning with the name and the time', async () => {
    platform().fail({ method: 'POST', path: '/api/tokens', drop: 'reset' })
    platform().fail({ method: 'GET', path: '/api/tokens', status: 503, times: Infinity })
    const main = await runAction({ inputs: inputs() })
    expect(expectCleanFailure(main)).toContain("whether token 'pr-5' was created is unknown")
    const post = await runAction({
      step: 'post',
      inputs: { ...inputs(), totalTimeout: '3' },
      state: main.state,
    })
    expect(post.exitCode).toBe(0)
    expect(post.warnings).toEqual([
      expect.stringMatching(
        /^Could not look for the token named 'pr-5' that this step may have created: .* answered 503 .* An active token named 'pr-5' created after \d{4}-\d\d-\d\dT[\d:.]+Z would be this step's/,
      ),
    ])
    expect(post.log).toContain('Looking again in 2 s.')
  })

  it('a create carried out only after the post step ended: a warning names it', async () => {
    // The platform makes the token well after the post step looked (a minute on).
    platform().fail({ method: 'POST', path: '/api/tokens', drop: 'reset', commitAfterMs: 60_000 })
    const main = await runAction({ inputs: inputs() })
    expectCleanFailure(main)
    const post = await runAction({
      step: 'post',
      inputs: { ...inputs(), totalTimeout: '3' },
      state: main.state,
    })
    expect(post.exitCode).toBe(0)
    expect(platform().tokens.size).toBe(0)
    expect(post.warnings).toEqual([
      expect.stringMatching(
        /^Did not revoke a token named 'pr-5' at the end of the job: none was in the list, and a create can land after the last look\. An active token named 'pr-5' created after .* would be this step's/,
      ),
    ])
    expect(platform().requestLines()).toEqual([AUTH, CREATE, LIST, AUTH, LIST, LIST])
  })
})

describe('a web page where the API should be (the committed bundle)', () => {
  const webApp = () =>
    platform().fail({
      server: 'api',
      status: 200,
      headers: { 'Content-Type': 'text/html' },
      body: '<!doctype html><title>Sign in</title>',
      times: Infinity,
    })
  const BASE_URL_HINT =
    /Check the baseUrl input \(http:\/\/127\.0\.0\.1:\d+\): the action adds \/api\/tokens to it/

  it('list names baseUrl and says the action adds /api/tokens', async () => {
    webApp()
    const run = await runAction({ inputs: { ...platform().connectionInputs(), operation: 'list' } })
    const message = expectCleanFailure(run)
    expect(message).toContain('answered 200 with a web page that is not JSON.')
    expect(message).toMatch(BASE_URL_HINT)
  })

  it('create names it, and so does the post step, which stops at the first page', async () => {
    webApp()
    const inputs = {
      ...platform().connectionInputs(),
      operation: 'create',
      name: 'm1',
      revokeOnExit: 'true',
    }
    const main = await runAction({ inputs })
    expect(expectCleanFailure(main)).toMatch(BASE_URL_HINT)
    const post = await runAction({ step: 'post', inputs, state: main.state })
    expect(post.warnings).toEqual([expect.stringMatching(BASE_URL_HINT)])
    // One authentication and one list: a page will not turn into the API by waiting.
    expect(platform().requestLines().slice(-2)).toEqual([AUTH, LIST])
    expect(post.log).not.toContain('Looking again')
    expectNoLeaks(post, platform().secrets())
  })
})

describe('an INPUT_* variable from the job’s env: block', () => {
  it('is refused before any request, and the message says it may come from an env: block', async () => {
    const run: ActionRun = await runAction({
      inputs: { ...platform().connectionInputs(), operation: 'list' },
      env: { INPUT_OLDER_THAN: '30d' },
    })
    const message = expectCleanFailure(run)
    expect(message).toContain("Input 'older_than' is not an input of this action")
    expect(message).toContain('it may come from an env: block')
    expect(message).toContain('INPUT_OLDER_THAN')
    expect(platform().requests).toEqual([])
  })
})
