// Golden messages of authentication: credentials refused, a wrong authUrl, no answer, an
// access token that cannot be used. Worded by a PlatformClient against nock, or by
// authenticate over a scripted CallLoop. See test/fixtures/golden.ts.
import nock from 'nock'
import { PlatformClient } from '../../src/platform/client.js'
import { TransportError } from '../../src/platform/http.js'
import { Deadline } from '../../src/shared/time.js'
import { FakeClock } from '../fixtures/clock.js'
import { recordingRunner } from '../fixtures/runner.js'
import { recordingSecrets } from '../fixtures/secrets.js'
import { FakeTransport } from '../fixtures/transport.js'
import { nestedJson } from '../support/fake-platform.mjs'
import { failedStep, pinMessages, thrown } from '../fixtures/golden.js'
import { API, AUTH, AUTH_PATH, CLIENT_SECRET, setup, useNock } from '../fixtures/nock-platform.js'

useNock()

const ENDPOINT = AUTH + AUTH_PATH
const refused = () => Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })
/** What Node raises for `https://` to a port that speaks plain HTTP. */
const plainHttp = () =>
  Object.assign(
    new Error(
      'write EPROTO 404D628C157F0000:error:0A00010B:SSL routines:tls_validate_record_header:wrong version number:../deps/openssl/openssl/ssl/record/methods/tlsany_meth.c:77:\n',
    ),
    { code: 'EPROTO' },
  )

/** A list whose authentication gets no answer, as `error` says, worded as the step's failure. */
const unanswered = (error: TransportError) =>
  failedStep('list', () =>
    new PlatformClient({
      baseUrl: API,
      authUrl: AUTH,
      clientId: 'client-1',
      clientSecret: CLIENT_SECRET,
      timeoutMs: 5_000,
      retries: 0,
      secrets: recordingSecrets().secrets,
      log: recordingRunner(),
      clock: new FakeClock(),
      deadline: new Deadline(new FakeClock(), 0),
      transport: new FakeTransport([error]),
    }).listTokens(),
  )

pinMessages('authentication', [
  {
    situation: 'the auth service refuses the credentials (401)',
    message: () => {
      nock(AUTH).post(AUTH_PATH).reply(401, { error: 'Invalid client credentials' })
      return failedStep('create', () => setup().client.createToken('x'))
    },
    expected: `create failed: authentication was refused: POST ${ENDPOINT} answered 401 Unauthorized: Invalid client credentials. Check the clientId and clientSecret inputs. Secrets are not passed to workflows triggered from forks.`,
  },
  {
    situation: 'the auth service answers 201, which is no success',
    message: () => {
      nock(AUTH).post(AUTH_PATH).reply(201, { access_token: 'eyJ.access.token' })
      return thrown(() => setup().client.listTokens())
    },
    expected: `authentication failed: POST ${ENDPOINT} answered 201 Created: a JSON body without an error message (fields: access_token).`,
  },
  {
    situation: 'the auth service refuses the connection',
    message: () => {
      nock(AUTH).post(AUTH_PATH).replyWithError(refused())
      return thrown(() => setup({ retries: 0 }).client.listTokens())
    },
    expected: `authentication failed: POST ${ENDPOINT} got no answer: connection refused (ECONNREFUSED). Check the authUrl input (${AUTH}) and that the runner can reach that host: a self-hosted runner may need a firewall rule or a proxy (HTTPS_PROXY, NO_PROXY).`,
  },
  {
    situation: 'the auth service refuses the connection on every attempt',
    message: () => {
      nock(AUTH).post(AUTH_PATH).times(2).replyWithError(refused())
      return failedStep('list', () => setup({ retries: 1 }).client.listTokens())
    },
    expected: `list failed: authentication failed: POST ${ENDPOINT} got no answer (attempt 2 of 2): connection refused (ECONNREFUSED). Check the authUrl input (${AUTH}) and that the runner can reach that host: a self-hosted runner may need a firewall rule or a proxy (HTTPS_PROXY, NO_PROXY).`,
  },
  {
    situation: 'authUrl is https:// to a port that speaks plain HTTP: tried once, in words',
    message: () => {
      // Once: the default retries would send it again if it were retried.
      nock(AUTH).post(AUTH_PATH).replyWithError(plainHttp())
      return failedStep('list', () => setup().client.listTokens())
    },
    expected: `list failed: authentication failed: POST ${ENDPOINT} got no answer: the server answered in plain HTTP, not in TLS (ERR_SSL_WRONG_VERSION_NUMBER). Check the authUrl input (${AUTH}): that port speaks plain HTTP, so it is not the server's HTTPS port. Give the address the server answers HTTPS on (port 443 when the URL names none).`,
  },
  {
    situation: 'the auth host cannot be found',
    message: () => unanswered(new TransportError('host not found (ENOTFOUND)', 'ENOTFOUND', false)),
    expected: `list failed: authentication failed: POST ${ENDPOINT} got no answer: host not found (ENOTFOUND). Check the authUrl input (${AUTH}) and that the runner can reach that host: a self-hosted runner may need a firewall rule or a proxy (HTTPS_PROXY, NO_PROXY).`,
  },
  {
    situation: 'no answer from the token endpoint within the timeout input',
    message: () =>
      unanswered(new TransportError('no answer within 5 s (timeout)', 'ETIMEDOUT', true)),
    expected: `list failed: authentication failed: POST ${ENDPOINT} got no answer: no answer within 5 s (timeout). The timeout input allows 5 s per request: raise it if the platform is this slow.`,
  },
  {
    situation: 'nothing takes credentials at authUrl (404)',
    message: () => {
      nock(AUTH).post(AUTH_PATH).reply(404, { error: 'No route' })
      return failedStep('list', () => setup({ retries: 0 }).client.listTokens())
    },
    expected: `list failed: authentication failed: POST ${ENDPOINT} answered 404 Not Found: No route. Check the authUrl input: nothing takes credentials at ${ENDPOINT}. Deployments differ in the path before /resources/auth/v2/api-token (/idp/identity, /frontegg/identity, /identity): set authUrl to the full endpoint URL, ending in /api-token.`,
  },
  {
    situation: 'an access_token that cannot be sent as a header value',
    message: () => {
      nock(AUTH).post(AUTH_PATH).reply(200, { access_token: 'eyJ.a b' })
      return failedStep('list', () => setup().client.listTokens())
    },
    expected: `list failed: authentication failed: POST ${ENDPOINT} answered 200 but its access_token cannot be sent as a header value: it holds characters other than visible ASCII.`,
  },
  {
    situation: 'a 503 whose JSON is too deep to read for its message',
    message: () => {
      nock(AUTH)
        .post(AUTH_PATH)
        .reply(503, nestedJson(30_000), { 'Content-Type': 'application/json' })
      return failedStep('list', () => setup({ retries: 0 }).client.listTokens())
    },
    expected: `list failed: authentication failed: POST ${ENDPOINT} answered 503 Service Unavailable: a JSON body of 179996 characters, too long to read for its message.`,
  },
  {
    situation: 'an authentication answered 503, tried again',
    message: async () => {
      nock(AUTH).post(AUTH_PATH).reply(503, 'Service Unavailable')
      nock(AUTH).post(AUTH_PATH).reply(200, { access_token: 'eyJ.access.token' })
      nock(API).get('/prefix/api/tokens').reply(200, [])
      const { client, log } = setup()
      await client.listTokens()
      return log.lines.find((line) => line.includes('retrying'))
    },
    expected: `info: POST ${ENDPOINT} answered 503 Service Unavailable (attempt 1 of 4): Service Unavailable; retrying in 0.5 s.`,
  },
])
