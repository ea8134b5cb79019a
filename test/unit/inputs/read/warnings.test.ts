// readInputs: an input set that the operation does not use is reported, and only then.
import { describe, expect, it } from '@jest/globals'
import { OPERATION, PROJECT_ID, read, TOKEN_ID } from '../../../fixtures/inputs.js'

describe('readInputs: inputs not used by the operation', () => {
  // Inputs every operation uses, and a cleanup input given its default: none is warned about.
  const COMMON = {
    ...{ timeout: '5', retries: '1', summary: 'false', totalTimeout: '60', keep: '1' },
    expectedProjectId: PROJECT_ID,
  }
  it.each<[string, Record<string, string>]>([
    [
      'create',
      { envName: 'X_TOKEN', ifExists: 'reuse', revokeOnExit: 'true', writeTokenFile: 'true' },
    ],
    ['list', { name: 'x', state: 'active' }],
    ['revoke', { tokenId: TOKEN_ID }],
    [
      'cleanup',
      {
        name: 'x',
        olderThan: '1d',
        keep: '2',
        keepIds: TOKEN_ID,
        dryRun: 'true',
        concurrency: '8',
      },
    ],
    ['audit', { name: 'x\ny', olderThan: '12h' }],
  ])('reads operation %s without warning about the inputs it uses: %j', (operation, used) => {
    const { inputs } = read({ ...COMMON, ...OPERATION[operation], ...used })
    expect(inputs.task.operation).toBe(operation)
    expect(inputs.warnings).toEqual([])
  })

  it.each<[string, string, string]>([
    ['create', 'state', 'active'],
    ['create', 'tokenId', TOKEN_ID],
    ['create', 'olderThan', '1d'],
    ['create', 'dryRun', 'true'],
    ['create', 'concurrency', '8'],
    ['list', 'envName', 'X_TOKEN'],
    ['list', 'ifExists', 'reuse'],
    ['list', 'revokeOnExit', 'true'],
    ['list', 'writeTokenFile', 'true'],
    ['list', 'keep', '2'],
    ['revoke', 'name', 'x'],
    ['cleanup', 'state', 'revoked'],
    // keep does not apply to an audit: the newest token of a name is a finding too.
    ['audit', 'keep', '2'],
    ['audit', 'keepIds', TOKEN_ID],
    ['list', 'keepIds', TOKEN_ID],
    ['audit', 'dryRun', 'true'],
    ['audit', 'state', 'active'],
  ])('warns that operation %s ignores %s', (operation, input, raw) => {
    const { inputs } = read({ ...OPERATION[operation], [input]: raw })
    expect(inputs.warnings).toEqual([
      `Input '${input}' is not used by operation ${operation}; it is ignored.`,
    ])
  })

  // The runner fills every default in before the step starts: those are not warned about.
  it('does not warn about an unused input left at its default, written out', () => {
    const defaults = { state: 'all', ifExists: 'create', keep: '1', dryRun: 'false' }
    const { inputs } = read({ ...OPERATION.revoke, ...defaults, concurrency: '4' })
    expect(inputs.warnings).toEqual([])
  })

  it('warns about each unused input, one line each', () => {
    const { inputs } = read({ ...OPERATION.revoke, name: 'x', dryRun: 'true', envName: 'X_TOKEN' })
    expect(inputs.warnings).toEqual([
      "Input 'name' is not used by operation revoke; it is ignored.",
      "Input 'envName' is not used by operation revoke; it is ignored.",
      "Input 'dryRun' is not used by operation revoke; it is ignored.",
    ])
  })
})
