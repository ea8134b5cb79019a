// Golden messages of call-loop.ts: a request that ran out of time or was cancelled, and a
// retry. Worded by a CallLoop over a scripted FakeTransport, or by a PlatformClient against
// nock (../failures/: what a failed request says, and what to check). See
// test/fixtures/golden.ts.
import nock from 'nock'
import { CUT_OFF, TransportError } from '../../../../src/platform/http.js'
import { loop, readStatus, REQUEST } from '../../../fixtures/call-loop.js'
import { pinMessages, thrown } from '../../../fixtures/golden.js'
import { API, AUTH, AUTH_PATH, setup, useNock } from '../../../fixtures/nock-platform.js'

useNock()

const ENDPOINT = AUTH + AUTH_PATH

pinMessages('the call loop', [
  {
    situation: 'a 429 asks for a wait longer than totalTimeout leaves',
    message: () => {
      const { callLoop } = loop([{ status: 429, headers: { 'Retry-After': '30' } }], {
        totalMs: 10_000,
      })
      return thrown(() => callLoop.call('api', REQUEST, readStatus))
    },
    expected: `GET ${REQUEST.url} answered 429 (attempt 1 of 4, Retry-After: 30); totalTimeout (10 s) leaves no time to wait 30.0 s and try again.`,
  },
  {
    situation: 'a 502 with no time left to try again: it may have taken effect',
    message: () => {
      const { callLoop, clock } = loop([{ status: 502 }], { totalMs: 1_000 })
      clock.advance(600)
      return thrown(() => callLoop.call('api', REQUEST, readStatus))
    },
    expected: `GET ${REQUEST.url} answered 502 (attempt 1 of 4); totalTimeout (1 s) leaves no time to wait 0.5 s and try again. It may have taken effect all the same.`,
  },
  {
    situation: 'a 429 with no time left to try again: nothing was done',
    message: () => {
      const { callLoop, clock } = loop([{ status: 429 }], { totalMs: 1_000 })
      clock.advance(600)
      return thrown(() => callLoop.call('api', REQUEST, readStatus))
    },
    expected: `GET ${REQUEST.url} answered 429 (attempt 1 of 4); totalTimeout (1 s) leaves no time to wait 0.5 s and try again.`,
  },
  {
    situation: 'totalTimeout runs out while an attempt waits for its answer',
    message: () => {
      const { callLoop, transport, clock } = loop(
        [new TransportError('no answer within 2 s (timeout)', 'ETIMEDOUT', true)],
        { totalMs: 2_000 },
      )
      transport.clock = clock
      return thrown(() => callLoop.call('api', REQUEST, readStatus))
    },
    expected: `totalTimeout (2 s) ran out while GET ${REQUEST.url} waited for an answer. It may have taken effect all the same.`,
  },
  {
    situation: 'the step is cancelled while a 502 waits to be tried again',
    message: () => {
      const { callLoop, deadline, transport } = loop([{ status: 502 }, { status: 200 }])
      transport.onSend = () => {
        deadline.cancel('SIGTERM')
      }
      return thrown(() => callLoop.call('api', REQUEST, readStatus))
    },
    expected: `GET ${REQUEST.url} answered 502 (attempt 1 of 4); the step was cancelled (SIGTERM), so it was not tried again. It may have taken effect all the same.`,
  },
  {
    situation: 'the step is cancelled while a request waits for its answer',
    message: () => {
      const { callLoop, deadline, transport } = loop([
        new TransportError('cut off: the step was cancelled', CUT_OFF, true),
      ])
      transport.onSend = () => {
        deadline.cancel('SIGINT')
      }
      return thrown(() => callLoop.call('api', REQUEST, readStatus))
    },
    expected: `The step was cancelled (SIGINT) while GET ${REQUEST.url} waited for an answer. It may have taken effect all the same.`,
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
