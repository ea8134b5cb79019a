// Golden messages of api.ts: an answer that cannot be used (an access_token that cannot be
// a header, a list that is not one, a new token's id that is not a UUID). Worded by a
// PlatformClient against nock, or by readCreated alone. See test/fixtures/golden.ts.
import nock from 'nock'
import { readCreated } from '../../../../src/platform/api.js'
import { failedStep, pinMessages, thrown } from '../../../fixtures/golden.js'
import {
  API,
  AUTH,
  AUTH_PATH,
  authOk,
  LIST,
  record,
  setup,
  useNock,
} from '../../../fixtures/nock-platform.js'

useNock()

const ENDPOINT = AUTH + AUTH_PATH

/** A list that fails as `reply` says, after authenticating; worded as the step's failure. */
function listFailed(reply: (scope: nock.Interceptor) => nock.Scope, retries = 0) {
  authOk()
  reply(nock(API).get(LIST))
  return failedStep('list', () => setup({ retries }).client.listTokens())
}

pinMessages('answers', [
  {
    situation: 'an access_token that cannot be sent as a header value',
    message: () => {
      nock(AUTH).post(AUTH_PATH).reply(200, { access_token: 'eyJ.a b' })
      return failedStep('list', () => setup().client.listTokens())
    },
    expected: `list failed: authentication failed: POST ${ENDPOINT} answered 200 but its access_token cannot be sent as a header value: it holds characters other than visible ASCII.`,
  },
  {
    situation: 'a list answered 200 with something other than a list',
    message: () => listFailed((list) => list.reply(200, { items: [] })),
    expected: `list failed: GET ${API}${LIST} answered 200 but the body is not a list of tokens.`,
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
])
