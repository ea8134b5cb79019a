// Golden messages of create-life.ts: a create answered with a token it cannot hand on (revoked
// at once), a lost create answer and what the list then shows. Worded by a PlatformClient
// against nock, or by CreateLife alone. See test/fixtures/golden.ts.
import nock from 'nock'
import { CreateLife, type CreateContext } from '../../../../src/platform/create-life.js'
import type { TokenRecord } from '../../../../src/shared/records.js'
import { failedStep, pinMessages, thrown } from '../../../fixtures/golden.js'
import { FakeClock } from '../../../fixtures/clock.js'
import {
  API,
  authOk,
  record,
  setup,
  TOKEN_ID,
  useNock,
  LIST,
  REVOKE,
} from '../../../fixtures/nock-platform.js'
import { recordingRunner } from '../../../fixtures/runner.js'

useNock()

const ADOPTED = '00000000-0000-4000-8000-00000000000a'
const THEIRS = '00000000-0000-4000-8000-00000000000e'
/** An ISO time `ms` after the fake clock's start. */
const at = (ms: number) => new Date(Date.UTC(2026, 10, 22, 12, 0, 0) + ms).toISOString()

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

pinMessages('a create’s life', [
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
])
