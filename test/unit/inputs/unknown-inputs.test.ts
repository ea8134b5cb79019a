// Unknown inputs: refused before any request, with the declared input meant; declared ones in any spelling pass.
import { describe, expect, it } from '@jest/globals'
import {
  closest,
  editDistance,
  inputVariable,
  refuseUnknownInputs,
} from '../../../src/inputs/unknown-inputs.js'
import { DECLARED_INPUTS } from '../../../src/inputs/read.js'
import { refusal } from '../../fixtures/input-error.js'
import { CONNECTION, read } from '../../fixtures/inputs.js'
import { pinMessages, thrown } from '../../fixtures/golden.js'

describe('inputVariable', () => {
  it('names the variable as the runner does: upper case, spaces as _', () => {
    expect(inputVariable('olderThan')).toBe('OLDERTHAN')
    expect(inputVariable('older than')).toBe('OLDER_THAN')
    expect(inputVariable('revoke-on-exit')).toBe('REVOKE-ON-EXIT')
  })
})

describe('refuseUnknownInputs', () => {
  const refused = (given: string[]) =>
    refusal(() => {
      refuseUnknownInputs(given, DECLARED_INPUTS)
    })

  it('accepts every declared input, in the runner spelling or any other case', () => {
    expect(() => {
      refuseUnknownInputs(DECLARED_INPUTS.map(inputVariable), DECLARED_INPUTS)
    }).not.toThrow()
    expect(() => {
      refuseUnknownInputs(['olderThan', 'OlderThan', 'DRYRUN'], DECLARED_INPUTS)
    }).not.toThrow()
  })

  it('refuses an underscore spelling, naming it and the input meant', () => {
    const error = refused(['OPERATION', 'OLDER_THAN'])
    expect(error.input).toBe('older_than')
    // The words of each refusal: the golden messages at the end of this file.
    expect(error.message).toMatch(/^Input 'older_than' is not an input of this action/)
    expect(error.message).toContain("did you mean 'olderThan'?")
    expect(error.message).toContain('Nothing was sent')
  })

  it('refuses a dashed spelling and a typo, each with the input meant', () => {
    expect(refused(['REVOKE-ON-EXIT']).message).toContain("did you mean 'revokeOnExit'?")
    expect(refused(['OLDERTHEN']).message).toContain("did you mean 'olderThan'?")
    expect(refused(['DRYRNU']).message).toContain("did you mean 'dryRun'?")
  })

  it('names every unknown input at once, in a fixed order', () => {
    const error = refused(['REVOKE-ON-EXIT', 'OLDER_THAN', 'FOO'])
    expect(error.input).toBe('foo')
    expect(error.message).toMatch(
      /Also unknown: 'older_than' \(did you mean 'olderThan'\?\), 'revoke-on-exit' \(.*'revokeOnExit'/,
    )
  })

  it('lists the inputs when none is close, rather than guess', () => {
    const error = refused(['COLOUR'])
    expect(error.message).toContain(`(the inputs are ${DECLARED_INPUTS.join(', ')}).`)
    expect(error.message).not.toContain('did you mean')
  })

  it('is refused by readInputs before any other check, even the missing operation', () => {
    const error = refusal(() => read({ operation: '', older_than: '30d' }))
    expect(error.input).toBe('older_than')
  })

  it('never quotes the value of an unknown input (it may be a secret)', () => {
    const error = refusal(() => read({ operation: 'list', client_secret: 'hunter2-secret' }))
    expect(error.message).toContain("did you mean 'clientSecret'?")
    expect(error.message).not.toContain('hunter2')
    expect(read({ operation: 'list', ...CONNECTION }).inputs.task.operation).toBe('list')
  })
})

describe('closest', () => {
  it('takes the same letters in any case and with any separators', () => {
    expect(closest('WRITE_TOKEN_FILE', DECLARED_INPUTS)).toBe('writeTokenFile')
    expect(closest('total-timeout', DECLARED_INPUTS)).toBe('totalTimeout')
  })

  it('takes a near one only within a quarter of the length (at least one edit)', () => {
    expect(closest('KEEPS', DECLARED_INPUTS)).toBe('keep')
    // Two edits in a five-letter name: too far to be a slip.
    expect(closest('KEPTS', DECLARED_INPUTS)).toBeUndefined()
    expect(closest('TOKENID2', DECLARED_INPUTS)).toBe('tokenId')
    expect(closest('___', DECLARED_INPUTS)).toBeUndefined()
  })
})

describe('editDistance', () => {
  it('counts inserts, deletes, replacements and swaps of neighbours as one edit each', () => {
    expect(editDistance('KEEP', 'KEEP')).toBe(0)
    expect(editDistance('KEEP', 'KEP')).toBe(1)
    expect(editDistance('KEP', 'KEEP')).toBe(1)
    expect(editDistance('KEEP', 'KEAP')).toBe(1)
    expect(editDistance('OLDERTHNA', 'OLDERTHAN')).toBe(1)
    expect(editDistance('', 'ABC')).toBe(3)
    expect(editDistance('ABC', '')).toBe(3)
    expect(editDistance('CA', 'ABC')).toBe(3)
  })
})

// The words of each refusal, whole: see test/fixtures/golden.ts.
pinMessages('unknown inputs', [
  {
    situation: 'an input of another spelling than the action’s',
    message: () =>
      thrown(() => {
        refuseUnknownInputs(['OPERATION', 'OLDER_THAN'], DECLARED_INPUTS)
      }),
    expected:
      "Input 'older_than' is not an input of this action: did you mean 'olderThan'? Nothing was sent: the runner passes an unknown input on with only a warning, and a misspelt one could drop a filter and widen what the action revokes. If the step's with: does not set it, it may come from an env: block of the step, the job or the workflow: a variable named INPUT_OLDER_THAN there reaches the action as an input; rename it.",
  },
  {
    situation: 'several inputs the action does not have',
    message: () =>
      thrown(() => {
        refuseUnknownInputs(['REVOKE-ON-EXIT', 'OLDER_THAN', 'FOO'], DECLARED_INPUTS)
      }),
    expected: `Input 'foo' is not an input of this action (the inputs are ${DECLARED_INPUTS.join(', ')}). Also unknown: 'older_than' (did you mean 'olderThan'?), 'revoke-on-exit' (did you mean 'revokeOnExit'?). Nothing was sent: the runner passes an unknown input on with only a warning, and a misspelt one could drop a filter and widen what the action revokes. If the step's with: does not set it, it may come from an env: block of the step, the job or the workflow: a variable named INPUT_FOO there reaches the action as an input; rename it.`,
  },
])
