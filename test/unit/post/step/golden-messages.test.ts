// Golden messages of the post step (revokeOnExit): a token revoked or not, a lost create
// looked for, a warning for what could not be done. Worded by run over a scripted
// FakeTransport, with the state the main step leaves. See test/fixtures/golden.ts.
import { TOKENS_PATH } from '../../../../src/platform/api.js'
import { run as runPost } from '../../../../src/post/step.js'
import { FakeClock } from '../../../fixtures/clock.js'
import { pinMessages } from '../../../fixtures/golden.js'
import {
  ACCESS_TOKEN,
  AUTH,
  AUTH_PATH,
  CLIENT_SECRET,
  record,
  TOKEN_ID,
} from '../../../fixtures/nock-platform.js'
import { noteCreate, POST_INPUTS, type NotedCreate } from '../../../fixtures/post-state.js'
import { recordingRunner } from '../../../fixtures/runner.js'
import { FakeTransport, type Scripted } from '../../../fixtures/transport.js'

const SENT_AT = Date.parse('2026-11-01T10:00:00.000Z')
const ID = (n: number) => `123e4567-e89b-42d3-a456-42661417400${n}`
const LIST = POST_INPUTS.baseUrl + TOKENS_PATH
const AUTH_OK: Scripted = { status: 200, json: { access_token: ACCESS_TOKEN, expires_in: 86400 } }
const MAINTENANCE: Scripted = {
  status: 503,
  statusText: 'Service Unavailable',
  json: { error: 'maintenance' },
}
/** A token named 'pr-7', created `offsetMs` after the create was sent. */
const pr7 = (n: number, offsetMs: number, fields: Record<string, unknown> = {}) =>
  record({
    id: ID(n),
    name: 'pr-7',
    createdAt: new Date(SENT_AT + offsetMs).toISOString(),
    ...fields,
  })
const listed = (...records: unknown[]): Scripted => ({ status: 200, json: records })

/**
 * The lines (debug aside) of a post step a minute after the create was sent, with what
 * the main step noted, more inputs, and the platform's answers.
 */
async function post(noted: Partial<NotedCreate>, script: Scripted[], inputs = {}) {
  const runner = recordingRunner({ ...POST_INPUTS, ...inputs })
  noteCreate(runner, { name: 'pr-7', sentAt: SENT_AT, ...noted })
  await runPost(runner, new FakeClock(SENT_AT + 61_000), new FakeTransport(script))
  return runner.lines.filter((line) => !line.startsWith('debug:'))
}
const last = async (lines: Promise<string[]>) => (await lines).at(-1)

pinMessages('the post step', [
  {
    situation: 'no answer said what became of the create: looking for its token',
    message: async () => (await post({}, [AUTH_OK, listed()]))[0],
    expected:
      "info: No answer said what became of this step's create of 'pr-7': looking for the token it may have made (revokeOnExit).",
  },
  {
    situation: 'an attempt of the create lost its answer: looking for its token',
    message: async () => {
      const revoked = record({ name: 'pr-7', state: 'revoked', tokenValue: undefined })
      const known = record({ name: 'pr-7', createdAt: new Date(SENT_AT + 3_000).toISOString() })
      const lines = post({ lostEarlier: true, id: TOKEN_ID }, [
        AUTH_OK,
        { status: 200, json: revoked },
        listed(known),
      ])
      return (await lines)[1]
    },
    expected:
      "info: An attempt of this step's create of 'pr-7' got no answer, and the create was sent again: looking for the token the lost attempt may have made (revokeOnExit).",
  },
  {
    situation: 'no other token of that name was created: a create can land after the last look',
    message: () =>
      last(
        post({ lostEarlier: true, id: TOKEN_ID }, [
          AUTH_OK,
          { status: 200, json: record({ name: 'pr-7', state: 'revoked', tokenValue: undefined }) },
          listed(record({ name: 'pr-7', createdAt: new Date(SENT_AT + 3_000).toISOString() })),
        ]),
      ),
    expected: `warning: Did not revoke a token named 'pr-7' at the end of the job: none was in the list, and a create can land after the last look. An active token named 'pr-7' other than ${TOKEN_ID} created after 2026-11-01T09:59:00.000Z would be this step's, and nobody has its value: revoke it (operation: revoke, tokenId).`,
  },
  {
    situation: 'the one candidate is 30 s older than the create, with no Date header',
    message: () => last(post({}, [AUTH_OK, listed(pr7(1, -30_000))])),
    expected: `warning: Did not revoke a token named 'pr-7' at the end of the job: the only candidate, ${ID(1)}, was not revoked because it was created 30 s before the create was sent by the runner's clock, and the platform's answers carry no Date header to compare the two clocks with, so it may be another's. Revoke it if it is this step's.`,
  },
  {
    situation: 'two candidates: which one is the create’s cannot be told',
    message: () => last(post({}, [AUTH_OK, listed(pr7(1, 1_000), pr7(2, 2_000))])),
    expected: `warning: Did not revoke a token named 'pr-7' at the end of the job: 2 active tokens of that name were created since the step began, and it could not tell which one this step created: ${ID(2)}, ${ID(1)}; revoke the one you do not need.`,
  },
  {
    situation: 'the one candidate’s createdAt cannot be read',
    message: () => last(post({}, [AUTH_OK, listed(pr7(2, 0, { createdAt: 'yesterday' }))])),
    expected: `warning: Did not revoke a token named 'pr-7' at the end of the job: the only candidate, ${ID(2)}, was not revoked because its createdAt ("yesterday") cannot be read, so whether it was made by this step or before it cannot be told. Revoke it if it is this step's.`,
  },
  {
    situation: 'the list fails while looking for the token',
    message: () => last(post({}, [AUTH_OK, MAINTENANCE], { totalTimeout: '1' })),
    expected: `warning: Could not look for the token named 'pr-7' that this step may have created: GET ${LIST} answered 503 Service Unavailable: maintenance. An active token named 'pr-7' created after 2026-11-01T09:59:00.000Z would be this step's, and nobody has its value: revoke it (operation: revoke, tokenId).`,
  },
  {
    situation: 'the revoke of the saved token fails',
    message: () => last(post({ id: ID(1) }, [AUTH_OK, MAINTENANCE])),
    expected: `warning: Could not revoke gateway token 'pr-7' (${ID(1)}) at the end of the job: POST ${LIST}/${ID(1)}/revoke?tokenId=${ID(1)} answered 503 Service Unavailable: maintenance. It may still be active: revoke it with operation: revoke and tokenId: ${ID(1)}.`,
  },
  {
    situation: 'authentication fails: the saved token may still be active',
    message: () =>
      last(
        post({ name: 'ephemeral', id: TOKEN_ID }, [
          { ...MAINTENANCE, json: { error: `down ${CLIENT_SECRET}` } },
        ]),
      ),
    expected: `warning: Could not revoke gateway token 'ephemeral' (${TOKEN_ID}) at the end of the job: authentication failed: POST ${AUTH}${AUTH_PATH} answered 503 Service Unavailable: down ***. It may still be active: revoke it with operation: revoke and tokenId: ${TOKEN_ID}.`,
  },
  {
    situation: 'the saved token does not exist: no advice',
    message: () =>
      last(
        post({ name: 'ephemeral', id: TOKEN_ID }, [
          AUTH_OK,
          { status: 404, json: { error: 'Token not found' } },
          listed(),
        ]),
      ),
    expected: `warning: Could not revoke gateway token 'ephemeral' (${TOKEN_ID}) at the end of the job: no token with id ${TOKEN_ID} exists in the project: POST ${LIST}/${TOKEN_ID}/revoke?tokenId=${TOKEN_ID} answered 404: Token not found.`,
  },
  {
    situation: 'the saved token id is not a UUID: nothing is sent',
    message: () => last(post({ name: 'ephemeral', id: 'tok-1' }, [])),
    expected:
      'warning: Could not revoke gateway token \'ephemeral\' (tok-1) at the end of the job: the token id "tok-1" is not a UUID, so it was not sent in a URL; nothing was revoked. It may still be active: look for it with operation: list, and revoke it on the platform.',
  },
  {
    situation: 'the inputs cannot connect: the saved token is not revoked',
    message: async () =>
      (await post({ id: TOKEN_ID }, [], { baseUrl: `not a url ${CLIENT_SECRET}` }))[0],
    expected: `warning: Could not revoke gateway token 'pr-7' (${TOKEN_ID}) at the end of the job: Input 'baseUrl' must be an absolute URL like https://api.example.com; got "not a url ***". It may still be active: revoke it with operation: revoke and tokenId: ${TOKEN_ID}.`,
  },
  {
    situation: 'the inputs cannot connect: the lost create is not looked for',
    message: () =>
      last(
        post({ lostEarlier: true, id: TOKEN_ID }, [], { baseUrl: `not a url ${CLIENT_SECRET}` }),
      ),
    expected: `warning: Could not look for the token named 'pr-7' that this step may have created: Input 'baseUrl' must be an absolute URL like https://api.example.com; got "not a url ***". An active token named 'pr-7' other than ${TOKEN_ID} created after 2026-11-01T09:59:00.000Z would be this step's, and nobody has its value: revoke it (operation: revoke, tokenId).`,
  },
  {
    situation: 'revokeOnExit: failure, and the job’s status is not known',
    message: () =>
      last(
        post({ name: 'ephemeral', id: TOKEN_ID, when: 'failure' }, [], { jobStatus: 'unknown' }),
      ),
    expected: `warning: Did not revoke the gateway token 'ephemeral' (${TOKEN_ID}) at the end of the job: revokeOnExit is failure, and the job's status is not known (jobStatus is "unknown", not success, failure or cancelled). If the job did not succeed, revoke it yourself.`,
  },
  {
    situation: 'revokeOnExit: failure, and the job was cancelled: maybe after its deploy finished',
    message: async () =>
      (
        await post({ name: 'mediator-production', id: TOKEN_ID, when: 'failure' }, [], {
          jobStatus: 'cancelled',
        })
      )[0],
    expected: `info: The job was cancelled: revoking the gateway token 'mediator-production' (${TOKEN_ID}) (revokeOnExit: failure). If a deploy had already put it in service, that mediator is now cut off, and the older tokens are still active: roll the deploy back or run it again.`,
  },
  {
    situation: 'revokeOnExit: failure, the job succeeded, and no answer said what the create made',
    message: () => last(post({ name: 'pr-9', when: 'failure' }, [], { jobStatus: 'success' })),
    expected:
      "warning: The job succeeded: the token named 'pr-9' that this step may have created stays active (revokeOnExit: failure). An active token named 'pr-9' created after 2026-11-01T09:59:00.000Z would be this step's, and nobody has its value: revoke it (operation: revoke, tokenId).",
  },
])
