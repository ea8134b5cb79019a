// Golden messages of client.ts: credentials refused, a revoke of an id the project does not
// have, a refused revoke the list cannot settle. Worded by a PlatformClient against nock, or
// by settleRefusals alone. See test/fixtures/golden.ts.
import nock from 'nock'
import { settleRefusals } from '../../../../src/platform/client.js'
import { RequestError, UnsettledRevokeError } from '../../../../src/shared/errors.js'
import { failedStep, pinMessages } from '../../../fixtures/golden.js'
import {
  API,
  AUTH,
  AUTH_PATH,
  authOk,
  LIST,
  setup,
  TOKEN_ID,
  useNock,
  REVOKE,
} from '../../../fixtures/nock-platform.js'

useNock()

const ENDPOINT = AUTH + AUTH_PATH
const refusal = (message: string, status: number) =>
  Promise.reject(new RequestError(message, status))

pinMessages('the client', [
  {
    situation: 'the auth service refuses the credentials (401)',
    message: () => {
      nock(AUTH).post(AUTH_PATH).reply(401, { error: 'Invalid client credentials' })
      return failedStep('create', () => setup().client.createToken('x'))
    },
    expected: `create failed: authentication was refused: POST ${ENDPOINT} answered 401 Unauthorized: Invalid client credentials. Check the clientId and clientSecret inputs. Secrets are not passed to workflows triggered from forks.`,
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
    situation: 'a refused revoke that the list cannot settle, as listing fails too',
    message: async () => {
      const list = () => refusal('GET answered 503.', 503)
      const unsettled = new UnsettledRevokeError(
        new RequestError('POST y answered 403 Forbidden.', 403),
        false,
      )
      const [settled] = await settleRefusals(list, [{ tokenId: 't1', unsettled }])
      return settled !== undefined && 'error' in settled ? settled.error.message : undefined
    },
    expected:
      'POST y answered 403 Forbidden. Whether it was revoked already could not be told: listing the tokens failed too: GET answered 503.',
  },
])
