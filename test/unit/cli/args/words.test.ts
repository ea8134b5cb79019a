// The command line's words for the core's inputs: spelling (how a user gives an input) and inCliWords (a core refusal, said with it).
import { describe, expect, it } from '@jest/globals'
import { inCliWords, spelling } from '../../../../src/cli/args.js'

describe('inCliWords: a refusal of the core in the command line’s words', () => {
  it('names the flag where the message starts with the input, and leaves the rest as it is', () => {
    expect(inCliWords('Input \'olderThan\' must be an age; got "x".')).toBe(
      '--older-than must be an age; got "x".',
    )
    const quoted = "list failed: the server said Input 'keep' is odd."
    expect(inCliWords(quoted)).toBe(quoted)
  })
})

describe('spelling: an input as a user of the command line gives it', () => {
  it.each([
    ['olderThan', '--older-than'],
    ['keepIds', '--keep-id'],
    ['clientId', '--client-id or PLATFORM_CLIENT_ID'],
    ['clientSecret', 'PLATFORM_CLIENT_SECRET or --client-secret-file'],
    ['expectedProjectId', '--expected-project-id or PLATFORM_PROJECT_ID'],
    ['env', '--env'],
    ['tokenFileEnv', '--token-file-env'],
  ])('%s: %s', (input, words) => {
    expect(spelling(input)).toBe(words)
  })
})
