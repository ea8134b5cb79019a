// Golden messages of the operations and what guards them: ifExists, a new token that could
// not be handed on, expectedProjectId, refusals a cleanup could not settle, the post step's
// search. Worded by the operation code over a TokenApi that answers as each row says.
// See test/fixtures/golden.ts.
import { create, handOnFailed } from '../../src/operations/create.js'
import { settleRefusals, type TokenApi } from '../../src/platform/client.js'
import { RequestError, FileWriteError, UnsettledRevokeError } from '../../src/shared/errors.js'
import { ProjectGuard } from '../../src/platform/project-guard.js'
import { searchCreated } from '../../src/post/step.js'
import { cleanupFailure } from '../../src/report/wording.js'
import { Deadline } from '../../src/shared/time.js'
import type { TokenRecord } from '../../src/shared/records.js'
import { FakeClock } from '../fixtures/clock.js'
import { cleanedUp, created, createTask } from '../fixtures/done.js'
import { failedStep, pinMessages, thrown } from '../fixtures/golden.js'
import { PROJECT_ID, TOKEN_ID } from '../fixtures/inputs.js'
import { API } from '../fixtures/nock-platform.js'
import { recordingRunner } from '../fixtures/runner.js'
import { token } from '../fixtures/token-api.js'

const OTHER_PROJECT = '0b8d9c7a-6e5f-4a3b-8c2d-1e0f9a8b7c6d'
const REVOKE = `POST ${API}/api/tokens/${TOKEN_ID}/revoke?tokenId=${TOKEN_ID}`

/** A TokenApi that lists `tokens`, creates `made`, and revokes as `revoke` says. */
function api(
  tokens: TokenRecord[],
  {
    made = tokens[0],
    revoke = () => Promise.resolve(),
    list = () => Promise.resolve(tokens),
  }: {
    made?: TokenRecord | undefined
    revoke?: () => Promise<void>
    list?: () => Promise<TokenRecord[]>
  } = {},
): TokenApi {
  return {
    listTokens: list,
    createToken: () =>
      made === undefined ? Promise.reject(new Error('no token')) : Promise.resolve(made),
    revokeToken: async (tokenId) => {
      await revoke()
      return { token: { id: tokenId, state: 'revoked' }, alreadyRevoked: false }
    },
    platformTime: (at) => at,
  }
}
/** A new token 'ci-deploy', created in another project than expectedProjectId. */
const elsewhere = token(TOKEN_ID, 'ci-deploy', 0, { projectId: OTHER_PROJECT })
const refusal = (message: string, status: number) =>
  Promise.reject(new RequestError(message, status))

pinMessages('the operations', [
  {
    situation: 'ifExists: fail, and a token of that name is active',
    message: () =>
      failedStep('create', () =>
        create(api([token('newest', 'ci-deploy', 1)]), createTask({ ifExists: 'fail' })),
      ),
    expected:
      "create failed: an active token named 'ci-deploy' exists already: newest, created 2026-11-21T00:00:00.000Z, and ifExists is fail.",
  },
  {
    situation: 'ifExists: reuse, and the list does not show the value',
    message: () =>
      thrown(() =>
        create(
          api([token('a', 'ci-deploy', 1, { tokenValue: undefined })]),
          createTask({ ifExists: 'reuse' }),
        ),
      ),
    expected:
      "an active token named 'ci-deploy' exists already: a, created 2026-11-21T00:00:00.000Z, but the platform did not return its value, so it cannot be reused.",
  },
  {
    situation: 'a new token whose value could not be written to GITHUB_OUTPUT',
    message: () =>
      failedStep('create', async () => {
        const full = new Error('ENOSPC: no space left on device, write')
        const result = created(token(TOKEN_ID, 'pr-1', 0))
        throw await handOnFailed(api([]), result, new FileWriteError('GITHUB_OUTPUT', full))
      }),
    expected: `create failed: could not write GITHUB_OUTPUT: ENOSPC: no space left on device, write. The value of the new gateway token 'pr-1' (${TOKEN_ID}) was not handed on. It was revoked at once.`,
  },
  {
    situation: 'expectedProjectId, and the list holds a token of another project',
    message: () =>
      thrown(() =>
        new ProjectGuard(
          api([token('b', 'prod', 1, { projectId: OTHER_PROJECT })]),
          PROJECT_ID,
        ).listTokens(),
      ),
    expected: `the platform listed 'prod' (b) of project ${OTHER_PROJECT}, but expectedProjectId is ${PROJECT_ID}: these credentials reach another project. Nothing was revoked or created; check clientId, clientSecret and baseUrl.`,
  },
  {
    situation: 'expectedProjectId, and the new token is of another project',
    message: () =>
      failedStep('create', () =>
        new ProjectGuard(api([elsewhere]), PROJECT_ID).createToken('ci-deploy'),
      ),
    expected: `create failed: the new token 'ci-deploy' (${TOKEN_ID}) belongs to project ${OTHER_PROJECT}, but expectedProjectId is ${PROJECT_ID}: its value was not handed on. It was revoked at once. Check clientId, clientSecret and baseUrl.`,
  },
  {
    situation: 'expectedProjectId, the new token is of another project, and its revoke fails',
    message: () => {
      const revoke = () =>
        refusal(`${REVOKE} answered 403 Forbidden: Your role may not revoke this token.`, 403)
      return failedStep('create', () =>
        new ProjectGuard(api([elsewhere], { revoke }), PROJECT_ID).createToken('ci-deploy'),
      )
    },
    expected: `create failed: the new token 'ci-deploy' (${TOKEN_ID}) belongs to project ${OTHER_PROJECT}, but expectedProjectId is ${PROJECT_ID}: its value was not handed on. Revoking it at once failed too: ${REVOKE} answered 403 Forbidden: Your role may not revoke this token. Revoke it with operation: revoke and tokenId: ${TOKEN_ID}. Check clientId, clientSecret and baseUrl.`,
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
  {
    situation: 'a cleanup could not revoke more tokens than the failure names',
    message: () => {
      const notRevoked = Array.from({ length: 7 }, (_, i) => ({
        token: token(`n${i}`, `ci-n${i}`, 40),
        reason: `answered 403 for n${i}.`,
      }))
      return cleanupFailure(cleanedUp({ notRevoked }))
    },
    expected:
      "7 of 7 tokens were not revoked (the other 0 were): 'ci-n0' (n0): answered 403 for n0. 'ci-n1' (n1): answered 403 for n1. 'ci-n2' (n2): answered 403 for n2. 'ci-n3' (n3): answered 403 for n3. 'ci-n4' (n4): answered 403 for n4. And 2 more: each has a warning above, and the job summary lists them.",
  },
  {
    situation: 'the post step’s search: the list fails, and is read again',
    message: async () => {
      const clock = new FakeClock()
      const log = recordingRunner()
      let lists = 0
      const list = () =>
        ++lists === 1
          ? Promise.reject(new RequestError('GET answered 503.', 503, true))
          : Promise.resolve([])
      const record = { name: 'pr-7', sentAt: clock.now() }
      const context = { clock, log, deadline: new Deadline(clock, 0) }
      await searchCreated(api([], { list }), record, context, 0)
      return log.lines[0]
    },
    expected: 'info: Listing the tokens failed: GET answered 503. Looking again in 2 s.',
  },
])
