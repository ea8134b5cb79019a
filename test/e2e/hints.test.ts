import { describe, expect, it } from '@jest/globals'
import { AUTH_PATH, startFakePlatform } from '../support/fake-platform.mjs'
import { runAction } from '../support/runner.mjs'
import { expectCleanFailure, expectNoLeaks, LIST, runAgainst, useFakePlatform } from './helpers.js'

// What a failure tells the workflow author to check (README, "When something fails").
// The ECONNREFUSED hint for authUrl is in failures.test.ts, an unresolvable authUrl behind
// NO_PROXY in proxy.test.ts.

const platform = useFakePlatform()
const AUTH = `POST ${AUTH_PATH}`
/** The id of a token the platform does not have. */
const UNKNOWN_ID = '123e4567-e89b-42d3-a456-426614174000'

// The words of each hint, and of the failures around them, are the golden messages of the
// unit tests (test/fixtures/golden.ts): these tests check what each failure names.

/** The failure names each of `facts`. */
function expectNames(message: string, ...facts: string[]): void {
  for (const fact of facts) expect(message).toContain(fact)
}

/** The hint after the token endpoint answered 404 or 405: authUrl, and the URL called. */
const AUTH_PATH_HINT = (endpoint: string) => [
  `Check the authUrl input: nothing takes credentials at ${endpoint}.`,
  'ending in /api-token',
]

/** The hint after a host could not be reached: the input, its origin, and the network. */
const REACH_HINT = (input: string, origin: string) => [
  `Check the ${input} input (${origin})`,
  'the runner can reach that host',
  'HTTPS_PROXY, NO_PROXY',
]

describe('hints: what a failure says to check (the committed bundle on Node 24)', () => {
  describe('the auth endpoint answered 404 or 405: authUrl, not the credentials', () => {
    it('a 404 from a wrong path prefix in a full endpoint URL points at authUrl and shows the URL called', async () => {
      // The older client's prefix, on a platform that serves /idp/identity/...
      const endpoint = `${platform().authUrl}/identity/resources/auth/v2/api-token`
      const run = await runAgainst(platform(), { operation: 'list', authUrl: endpoint })

      const message = expectCleanFailure(run)
      expect(message).toMatch(/^list failed: authentication failed: /)
      expectNames(message, `POST ${endpoint} answered 404 Not Found`, ...AUTH_PATH_HINT(endpoint))
      expect(message).not.toMatch(/clientId|clientSecret|forks/)
      // Not transient: sent once, though retries is 3 by default.
      expect(platform().requestLines()).toEqual(['POST /identity/resources/auth/v2/api-token'])
      expectNoLeaks(run, platform().secrets())
    })

    it('a 405 from the token endpoint points at authUrl and shows the URL called', async () => {
      platform().fail({ server: 'auth', status: 405, times: Infinity })
      const endpoint = `${platform().authUrl}${AUTH_PATH}`
      const run = await runAgainst(platform(), { operation: 'list' })

      const message = expectCleanFailure(run)
      expect(message).toMatch(/^list failed: authentication failed: /)
      expectNames(message, `POST ${endpoint} answered 405`, ...AUTH_PATH_HINT(endpoint))
      expect(message).not.toMatch(/clientId|clientSecret|forks/)
      expect(platform().requestLines()).toEqual([AUTH])
    })

    it.each([
      ['401 (a wrong secret)', 401, 'Unauthorized', 'Invalid client credentials'],
      ['403', 403, 'Forbidden', 'Injected 403'],
    ])(
      'a %s still points at clientId/clientSecret and forks, not at authUrl',
      async (_, status, reason, detail) => {
        const inputs: Record<string, string> = { operation: 'list' }
        if (status === 401) inputs.clientSecret = 'wrong-secret'
        else platform().fail({ server: 'auth', status })
        const run = await runAgainst(platform(), inputs)

        const message = expectCleanFailure(run)
        expect(message).toMatch(/^list failed: authentication was refused: /)
        expectNames(
          message,
          `POST ${platform().authUrl}${AUTH_PATH} answered ${status} ${reason}: ${detail}.`,
          'Check the clientId and clientSecret inputs.',
          'forks',
        )
        expect(message).not.toContain('authUrl')
        expect(platform().requestLines()).toEqual([AUTH])
      },
    )

    it.each([
      ['404 (a wrong path prefix in baseUrl)', 404],
      ['405', 405],
    ])('a %s from the API does not point at authUrl', async (_, status) => {
      const inputs: Record<string, string> = { operation: 'list' }
      if (status === 404) inputs.baseUrl = `${platform().baseUrl}/wrong`
      else platform().fail({ server: 'api', status })
      const run = await runAgainst(platform(), inputs)

      const base = platform().baseUrl
      const message = expectCleanFailure(run)
      expect(message).not.toContain('authUrl')
      if (status === 404) {
        expectNames(
          message,
          `list failed: GET ${base}/wrong/api/tokens answered 404 Not Found`,
          `Nothing answers at ${base}/wrong/api/tokens`,
          `check the baseUrl input (${base}/wrong)`,
        )
      } else {
        expect(message).toBe(
          `list failed: GET ${base}/api/tokens answered 405 Method Not Allowed: Injected 405.`,
        )
      }
      expect(platform().requestLines()).toEqual([
        AUTH,
        status === 404 ? 'GET /wrong/api/tokens' : LIST,
      ])
    })
  })

  describe('the API answered 404 on its own path: baseUrl (case 8 of issue 16)', () => {
    it('a baseUrl ending in /api names baseUrl and the repeated /api/', async () => {
      const baseUrl = `${platform().baseUrl}/api`
      const run = await runAgainst(platform(), { operation: 'list', baseUrl })
      expectNames(
        expectCleanFailure(run),
        `list failed: GET ${baseUrl}/api/tokens answered 404 Not Found`,
        `Check the baseUrl input (${baseUrl})`,
        'the path repeats /api/',
        'leave /api off its end',
      )
    })

    it('a create and a revoke under that baseUrl say the same', async () => {
      const baseUrl = `${platform().baseUrl}/api/`
      const hint = 'the path repeats /api/'
      const create = await runAgainst(platform(), { operation: 'create', name: 'x', baseUrl })
      expect(expectCleanFailure(create)).toContain(hint)
      const revoke = await runAgainst(platform(), {
        operation: 'revoke',
        tokenId: UNKNOWN_ID,
        baseUrl,
      })
      expect(expectCleanFailure(revoke)).toContain(hint)
    })

    it('a baseUrl with a wrong prefix: nothing answers at /api/tokens, check baseUrl', async () => {
      const baseUrl = `${platform().baseUrl}/v2`
      const run = await runAgainst(platform(), { operation: 'list', baseUrl })
      expect(expectCleanFailure(run)).toContain(
        `Nothing answers at ${baseUrl}/api/tokens: check the baseUrl input (${baseUrl}).`,
      )
    })

    it('a revoke of an unknown token on the right path gets no baseUrl hint', async () => {
      const run = await runAgainst(platform(), { operation: 'revoke', tokenId: UNKNOWN_ID })
      const message = expectCleanFailure(run)
      expect(message).toContain(`no token with id ${UNKNOWN_ID} exists in the project`)
      expect(message).not.toContain('baseUrl')
    })
  })

  describe('no answer within timeout seconds: the timeout input and its value', () => {
    it('a token endpoint that never answers names the timeout input and its value', async () => {
      platform().fail({ server: 'auth', drop: 'hang' })
      const run = await runAgainst(platform(), { operation: 'list', timeout: '1', retries: '0' })

      const message = expectCleanFailure(run)
      expect(message).toMatch(/^list failed: authentication failed: /)
      expectNames(
        message,
        `POST ${platform().authUrl}${AUTH_PATH} got no answer`,
        'The timeout input allows 1 s per request',
      )
      expect(platform().requestLines()).toEqual([AUTH])
    })

    it('an API that never answers names the timeout input and its value, not a URL input', async () => {
      platform().fail({ server: 'api', method: 'GET', path: '/api/tokens', drop: 'hang' })
      const run = await runAgainst(platform(), { operation: 'list', timeout: '2', retries: '0' })

      const message = expectCleanFailure(run)
      expectNames(
        message,
        `list failed: GET ${platform().baseUrl}/api/tokens got no answer`,
        'The timeout input allows 2 s per request',
      )
      expect(message).not.toMatch(/baseUrl|authUrl|clientId/)
      expect(platform().requestLines()).toEqual([AUTH, LIST])
    })
  })

  describe('a host that cannot be reached: the URL input, and whether the runner can reach it', () => {
    it('a refused baseUrl names baseUrl (not authUrl) and its origin', async () => {
      // A port that was just in use and is closed now: connecting to it is refused.
      const gone = await startFakePlatform()
      const baseUrl = gone.baseUrl
      await gone.close()
      const run = await runAgainst(platform(), { operation: 'list', baseUrl, retries: '0' })

      const message = expectCleanFailure(run)
      expectNames(
        message,
        `list failed: GET ${baseUrl}/api/tokens got no answer`,
        '(ECONNREFUSED)',
        ...REACH_HINT('baseUrl', baseUrl),
      )
      expect(message).not.toContain('authUrl')
      // Authentication went through: only the API was out of reach.
      expect(platform().requestLines()).toEqual([AUTH])
    })

    it.each([
      [
        'authUrl',
        'https://auth.gateway.invalid/prefix',
        `POST https://auth.gateway.invalid/prefix${AUTH_PATH}`,
      ],
      [
        'baseUrl',
        'https://api.gateway.invalid/prefix',
        'GET https://api.gateway.invalid/prefix/api/tokens',
      ],
    ])(
      'an unresolvable host in %s names that input and its origin',
      async (input, url, request) => {
        const run = await runAgainst(platform(), { operation: 'list', [input]: url, retries: '0' })

        // Without a network the lookup may fail as EAI_AGAIN rather than ENOTFOUND: both are
        // "cannot be reached", with the same hint.
        const failed = input === 'authUrl' ? 'authentication failed: ' : ''
        const message = expectCleanFailure(run)
        expect(message.startsWith(`list failed: ${failed}${request} got no answer: `)).toBe(true)
        expect(message).toMatch(/\((ENOTFOUND|EAI_AGAIN)\)/)
        expectNames(message, ...REACH_HINT(input, new URL(url).origin))
        expect(platform().requestLines()).toEqual(input === 'authUrl' ? [] : [AUTH])
      },
    )
  })
})

describe('https:// to a port that speaks plain HTTP (the committed bundle, issue 32)', () => {
  it.each([
    ['authUrl', 'auth'],
    ['baseUrl', 'api'],
  ] as const)(
    'in %s: said in words, tried once, over in well under a second; the post step sends nothing',
    async (input, server) => {
      // The fake platform's servers speak plain HTTP on 127.0.0.1.
      const plain = platform().connectionInputs()[input]
      const inputs = {
        ...platform().connectionInputs(),
        [input]: plain.replace(/^http:/, 'https:'),
        operation: 'create',
        name: 'm1',
        revokeOnExit: 'true',
      }
      const main = await runAction({ inputs })

      const message = expectCleanFailure(main)
      expectNames(
        message,
        'got no answer: the server answered in plain HTTP, not in TLS (ERR_SSL_WRONG_VERSION_NUMBER).',
        `Check the ${input} input (${plain.replace(/^http:/, 'https:')}): that port speaks plain HTTP, not HTTPS.`,
        `For a server on this machine, http:// is allowed: ${plain}.`,
      )
      // OpenSSL's own words never: its codes, its source paths, its line break.
      expect(message).not.toMatch(/EPROTO|error:0A|routines|openssl|\n/i)
      // Once, though retries is 3 by default: one connection, and no request it could read.
      expect(main.log).not.toContain('retrying')
      expect(platform().connections[server]).toBe(1)
      expect(platform().requestLines()).toEqual(server === 'auth' ? [] : [AUTH])
      expect(main.endedAtMs).toBeLessThan(1_000)

      const post = await runAction({ step: 'post', inputs, state: main.state })
      expect(post.exitCode).toBe(0)
      expect(post.warnings).toEqual([])
      expect(post.log).toMatch(
        /^This step's create of 'm1' made no token|^This step created no token/,
      )
      expect(platform().connections).toEqual({ auth: 1, api: server === 'api' ? 1 : 0 })
      expect(platform().requestLines()).toEqual(server === 'auth' ? [] : [AUTH])
      expectNoLeaks(main, platform().secrets())
    },
  )
})
