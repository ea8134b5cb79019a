// Golden messages of the input parsers: a value refused before any request is sent, as
// readInputs refuses it with the inputs of test/fixtures/inputs.ts (../unknown-inputs.test.ts:
// an input the action does not have). See test/fixtures/golden.ts.
import { pinMessages, thrown } from '../../../fixtures/golden.js'
import { OPERATION, read } from '../../../fixtures/inputs.js'

/** The message readInputs refuses `given` with, on top of `operation`'s inputs. */
const refused = (operation: string, given: Record<string, string>) =>
  thrown(() => read({ ...OPERATION[operation], ...given }))

pinMessages('the inputs', [
  {
    situation: 'an envName that would change how every later step runs',
    message: () => refused('create', { envName: 'PATH' }),
    expected:
      "Input 'envName' must not be PATH: it would change how every later step runs. Choose a name of your own, like YOURSERVICE_GATEWAY_TOKEN.",
  },
  {
    situation: 'an envName that is not a variable name',
    message: () => refused('create', { envName: 'MY TOKEN' }),
    expected:
      'Input \'envName\' must be an environment variable name (letters, digits and _, not starting with a digit); got "MY TOKEN".',
  },
  {
    situation: 'an olderThan without a unit',
    message: () => refused('cleanup', { olderThan: '30' }),
    expected:
      'Input \'olderThan\' must be a whole number and a unit, m, h, d or w (90m, 12h, 30d, 2w); got "30".',
  },
  {
    situation: 'a keepIds line that is not a token id',
    message: () => refused('cleanup', { keepIds: 'mediator-production' }),
    expected:
      'Input \'keepIds\' must hold token ids (UUIDs), one per line, like 123e4567-e89b-42d3-a456-426614174000; got "mediator-production".',
  },
  {
    situation: 'an expectedProjectId that is not a UUID',
    message: () => refused('list', { expectedProjectId: '..' }),
    expected:
      'Input \'expectedProjectId\' must be a project id (a UUID) like 6f1c2a8e-3b4d-4e5f-9a0b-1c2d3e4f5a6b; got "..".',
  },
])
