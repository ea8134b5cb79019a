// Golden messages of failures.ts, through a PlatformClient against nock: an authentication
// or an API call that failed, what its body said, and what to check (authUrl, the timeout
// input). See test/fixtures/golden.ts.
import nock from 'nock'
import { PlatformClient } from '../../../../src/platform/client.js'
import { TransportError } from '../../../../src/platform/http.js'
import { Deadline } from '../../../../src/shared/time.js'
import { FakeClock } from '../../../fixtures/clock.js'
import { recordingRunner } from '../../../fixtures/runner.js'
import { recordingSecrets } from '../../../fixtures/secrets.js'
import { FakeTransport } from '../../../fixtures/transport.js'
import { nestedJson } from '../../../support/fake-platform.mjs'
import { failedStep, pinMessages, thrown } from '../../../fixtures/golden.js'
import {
  API,
  AUTH,
  AUTH_PATH,
  authOk,
  CLIENT_SECRET,
  LIST,
  setup,
  useNock,
} from '../../../fixtures/nock-platform.js'

useNock()

const ENDPOINT = AUTH + AUTH_PATH
const HTML = '<html><body><h1>502 Bad Gateway</h1></body></html>'
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

/** A list that fails as `reply` says, after authenticating; worded as the step's failure. */
function listFailed(reply: (scope: nock.Interceptor) => nock.Scope, retries = 0) {
  authOk()
  reply(nock(API).get(LIST))
  return failedStep('list', () => setup({ retries }).client.listTokens())
}

pinMessages('authentication', [
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
    situation: 'a 503 whose JSON is too deep to read for its message',
    message: () => {
      nock(AUTH)
        .post(AUTH_PATH)
        .reply(503, nestedJson(30_000), { 'Content-Type': 'application/json' })
      return failedStep('list', () => setup({ retries: 0 }).client.listTokens())
    },
    expected: `list failed: authentication failed: POST ${ENDPOINT} answered 503 Service Unavailable: a JSON body of 179996 characters, too long to read for its message.`,
  },
])

pinMessages('the API', [
  {
    situation: 'a 502 HTML page, with no retries',
    message: () => listFailed((list) => list.reply(502, HTML)),
    expected: `list failed: GET ${API}${LIST} answered 502 Bad Gateway: the body was not JSON (an HTML page).`,
  },
  {
    situation: 'a 502 HTML page on every attempt',
    message: () => listFailed((list) => list.times(3).reply(502, HTML), 2),
    expected: `list failed: GET ${API}${LIST} answered 502 Bad Gateway (attempt 3 of 3): the body was not JSON (an HTML page).`,
  },
  {
    situation: 'a 503 with retries: 0',
    message: () => listFailed((list) => list.reply(503, { message: 'maintenance' })),
    expected: `list failed: GET ${API}${LIST} answered 503 Service Unavailable: maintenance.`,
  },
  {
    situation: 'the access token is rejected even after authenticating again',
    message: () => {
      nock(API).get(LIST).reply(401, { error: 'Token expired' })
      authOk()
      return listFailed((list) => list.reply(401, { error: 'Token revoked' }))
    },
    expected: `list failed: the access token was rejected: GET ${API}${LIST} answered 401 Unauthorized even after authenticating again: Token revoked.`,
  },
  {
    situation: 'the role may not manage tokens (403)',
    message: () => {
      authOk()
      nock(API).post(LIST).reply(403, { error: 'Your role may not manage gateway tokens' })
      return failedStep('create', () => setup().client.createToken('ci-deploy'))
    },
    expected: `create failed: POST ${API}${LIST} answered 403 Forbidden: Your role may not manage gateway tokens.`,
  },
])
