// Golden messages of create-life.ts's search (findCreated) and the post step's (searchCreated): why a candidate for a lost create's token cannot be
// taken for it, and the search's line when a list fails. Worded by findCreated and
// searchCreated alone. See test/fixtures/golden.ts.
import { findCreated } from '../../../../src/platform/create-life.js'
import { searchCreated } from '../../../../src/post/step.js'
import { RequestError } from '../../../../src/shared/errors.js'
import type { TokenRecord } from '../../../../src/shared/records.js'
import { Deadline } from '../../../../src/shared/time.js'
import { FakeClock } from '../../../fixtures/clock.js'
import { pinMessages } from '../../../fixtures/golden.js'
import { recordingRunner } from '../../../fixtures/runner.js'
import { answeringApi as api } from '../../../fixtures/token-api.js'

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

pinMessages('a lost create’s token', [
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
      await searchCreated(api([], { list }), record, context)
      return log.lines[0]
    },
    expected: 'info: Listing the tokens failed: GET answered 503. Looking again in 2 s.',
  },
])
