// Golden messages of the platform's API: a failed list, create or revoke, a lost create
// answer, an answer that cannot be used. Worded by a PlatformClient against nock, or by
// the function that words it alone. See test/fixtures/golden.ts.
import nock from 'nock'
import { readCreated } from '../../src/platform/api.js'
import { CreateLife, type CreateContext } from '../../src/platform/create-life.js'
import { findCreated } from '../../src/platform/create-life.js'
import type { TokenRecord } from '../../src/shared/records.js'
import { failedStep, pinMessages, thrown } from '../fixtures/golden.js'
import { FakeClock } from '../fixtures/clock.js'
import { API, authOk, record, setup, TOKEN_ID, useNock, LIST } from '../fixtures/nock-platform.js'
import { recordingRunner } from '../fixtures/runner.js'

useNock()

const REVOKE = `${LIST}/${TOKEN_ID}/revoke`
const HTML = '<html><body><h1>502 Bad Gateway</h1></body></html>'
const ADOPTED = '00000000-0000-4000-8000-00000000000a'
const THEIRS = '00000000-0000-4000-8000-00000000000e'
/** An ISO time `ms` after the fake clock's start. */
const at = (ms: number) => new Date(Date.UTC(2026, 10, 22, 12, 0, 0) + ms).toISOString()

/** A list that fails as `reply` says, after authenticating; worded as the step's failure. */
function listFailed(reply: (scope: nock.Interceptor) => nock.Scope, retries = 0) {
  authOk()
  reply(nock(API).get(LIST))
  return failedStep('list', () => setup({ retries }).client.listTokens())
}

/** A create of 'ci-deploy' whose answer is lost (a 502), then a list that answers `tokens`. */
function lostCreate(tokens: unknown[]) {
  authOk()
  nock(API).post(LIST).reply(502, '')
  nock(API).get(LIST).reply(200, tokens)
  return setup()
}

/** A create of 'pr-1' that answered with `token`, checked against the request. */
const answered = (token: TokenRecord, fields: Partial<CreateContext> = {}) =>
  new CreateLife('pr-1', 'never', {
    clock: new FakeClock(Date.UTC(2026, 10, 22, 12, 0, 0)),
    log: recordingRunner(),
    list: () => Promise.resolve([]),
    platformTime: (time) => time,
    revoke: () => Promise.resolve(),
    record: () => undefined,
    ...fields,
  }).accept(token, `POST ${API}${LIST}`)

/** A token of 'pr-7' for findCreated, created `offsetMs` after the create was sent. */
const SENT_AT = Date.parse('2026-11-01T10:00:00.000Z')
const pr7 = (offsetMs: number, fields: Partial<TokenRecord> = {}): TokenRecord => ({
  id: 'a',
  name: 'pr-7',
  state: 'active',
  createdAt: new Date(SENT_AT + offsetMs).toISOString(),
  ...fields,
})
const unsureWhy = (token: TokenRecord, platformTime: (at: number) => number | undefined) => {
  const found = findCreated([token], { name: 'pr-7', sentAt: SENT_AT }, platformTime)
  return found.found === 'unsure' ? found.why : found.found
}

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
    situation: 'a list answered 200 with something other than a list',
    message: () => listFailed((list) => list.reply(200, { items: [] })),
    expected: `list failed: GET ${API}${LIST} answered 200 but the body is not a list of tokens.`,
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
  {
    situation: 'a revoke of a token id the project does not have',
    message: () => {
      authOk()
      nock(API).post(REVOKE).query(true).reply(404, { error: 'Token not found' })
      nock(API).get(LIST).reply(200, [])
      return failedStep('revoke', () => setup().client.revokeToken(TOKEN_ID))
    },
    expected: `revoke failed: no token with id ${TOKEN_ID} exists in the project: POST ${API}${REVOKE}?tokenId=${TOKEN_ID} answered 404 Not Found: Token not found.`,
  },
  {
    situation: 'a create answered 201 with an id that is not a UUID',
    message: () =>
      thrown(() =>
        readCreated(
          { method: 'POST', url: `${API}${LIST}`, headers: {} },
          { status: 201, statusText: '', headers: {}, body: '', json: record({ id: '..' }) },
        ),
      ),
    expected: `POST ${API}${LIST} answered 201 but the new token's id ".." is not a UUID, so the action cannot use it; look for the token with operation: list.`,
  },
  {
    situation: 'a create answered with an id that is not a UUID, and the list shows that token',
    message: () => {
      authOk()
      const odd = record({ id: '..', name: 'pr-2', createdAt: at(100) })
      nock(API).post(LIST).reply(201, odd)
      nock(API).get(LIST).reply(200, [odd])
      return failedStep('create', () => setup().client.createToken('pr-2'))
    },
    expected: `create failed: POST ${API}${LIST} answered 201 but the new token's id ".." is not a UUID, so the action cannot use it; look for the token with operation: list; a token named 'pr-2' was created, but its id ".." is not a UUID, so the action cannot use it. Revoke it and run again.`,
  },
  {
    situation: 'a create answered with a blank value: the token is revoked at once',
    message: () => {
      authOk()
      const blank = record({ name: 'x', tokenValue: '  ', createdAt: at(0) })
      nock(API).post(LIST).reply(201, blank)
      nock(API).get(LIST).reply(200, [blank])
      nock(API)
        .post(REVOKE)
        .query(true)
        .reply(200, record({ name: 'x', state: 'revoked', tokenValue: undefined }))
      return failedStep('create', () => setup().client.createToken('x'))
    },
    expected: `create failed: POST ${API}${LIST} answered 201 but the new token ${TOKEN_ID} has no tokenValue; revoke it and try again; token ${TOKEN_ID} was created, but the platform does not show its value (the answer had none, or a blank one). It was revoked at once.`,
  },
  {
    situation: 'a create answered with a token of another name: revoked at once',
    message: () => thrown(() => answered(record({ id: 't-1', name: 'PR-1', createdAt: at(500) }))),
    expected: `POST ${API}${LIST} answered with the token 'PR-1' (t-1) in state "active", not an active token named 'pr-1': its value was not handed on. It was revoked at once.`,
  },
  {
    situation: 'a create answered with a token of another name, whose revoke fails too',
    message: () =>
      thrown(() =>
        answered(record({ id: 't-1', name: 'other', createdAt: at(500) }), {
          revoke: () => Promise.reject(new Error('answered 503.')),
        }),
      ),
    expected: `POST ${API}${LIST} answered with the token 'other' (t-1) in state "active", not an active token named 'pr-1': its value was not handed on. Revoking it at once failed too: answered 503. Revoke it with operation: revoke and tokenId: t-1.`,
  },
  {
    situation: 'a lost create answer: the list shows the token',
    message: async () => {
      const { client, log } = lostCreate([record({ id: ADOPTED, createdAt: at(100) })])
      await client.createToken('ci-deploy')
      return log.lines.find((line) => line.startsWith('info: It was'))
    },
    expected: `info: It was: token ${ADOPTED}, created at 2026-11-22T12:00:00.100Z, is this step's token.`,
  },
  {
    situation: 'a lost create answer: several tokens of that name were created meanwhile',
    message: () => {
      const tokens = [1, 2].map((n) => record({ id: `mine-or-theirs-${n}`, createdAt: at(n) }))
      return thrown(() => lostCreate(tokens).client.createToken('ci-deploy'))
    },
    expected: `POST ${API}${LIST} answered 502 Bad Gateway (attempt 1 of 4); 2 active tokens named 'ci-deploy' were created since this step began (mine-or-theirs-2, mine-or-theirs-1), so which one is this step's cannot be told. Give each job a token name of its own; revoke the tokens you do not need.`,
  },
  {
    situation: 'a lost create answer, no Date header: a token of that name 30 s older',
    message: () => {
      const theirs = record({ id: THEIRS, createdAt: at(-30_000) })
      return thrown(() => lostCreate([theirs]).client.createToken('ci-deploy'))
    },
    expected: `POST ${API}${LIST} answered 502 Bad Gateway (attempt 1 of 4); the list shows one active token named 'ci-deploy', ${THEIRS}, but it was created 30 s before the create was sent by the runner's clock, and the platform's answers carry no Date header to compare the two clocks with, so it may be another's. It was not taken for this step's. An active token named 'ci-deploy' created after 2026-11-22T11:59:00.000Z would be this step's, and nobody has its value: revoke it (operation: revoke, tokenId).`,
  },
  {
    situation: 'a lost create answer, and listing the tokens fails too',
    message: () => {
      authOk()
      nock(API).post(LIST).reply(502, '')
      nock(API).get(LIST).times(2).reply(500, { error: 'list down' })
      return thrown(() => setup({ retries: 1 }).client.createToken('ci-deploy'))
    },
    expected: `POST ${API}${LIST} answered 502 Bad Gateway (attempt 1 of 2); whether token 'ci-deploy' was created is unknown, as listing the tokens failed too: GET ${API}${LIST} answered 500 Internal Server Error (attempt 2 of 2): list down. An active token named 'ci-deploy' created after 2026-11-22T11:59:00.000Z would be this step's, and nobody has its value: revoke it (operation: revoke, tokenId).`,
  },
  {
    situation: 'a lost create: a candidate whose createdAt cannot be read',
    message: () => unsureWhy(pr7(0, { createdAt: 'yesterday' }), (time) => time),
    expected:
      'its createdAt ("yesterday") cannot be read, so whether it was made by this step or before it cannot be told',
  },
  {
    situation: 'a lost create: a candidate listed without a createdAt',
    message: () => unsureWhy({ id: 'a', name: 'pr-7', state: 'active' }, (time) => time),
    expected:
      'its createdAt ("") cannot be read, so whether it was made by this step or before it cannot be told',
  },
  {
    situation: 'a lost create, no Date header: the one candidate is 30 s older',
    message: () => unsureWhy(pr7(-30_000), () => undefined),
    expected:
      "it was created 30 s before the create was sent by the runner's clock, and the platform's answers carry no Date header to compare the two clocks with, so it may be another's",
  },
])
