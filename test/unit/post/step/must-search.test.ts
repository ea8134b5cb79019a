// mustSearch: whose token the post step looks for at the end, by the create's recorded state.
import { describe, expect, it } from '@jest/globals'
import type { CreateRecord } from '../../../../src/platform/create-life.js'
import { mustSearch } from '../../../../src/post/step.js'

describe('mustSearch: whose token the end looks for', () => {
  const record = (fields: Partial<CreateRecord>): CreateRecord => ({
    name: 'pr-1',
    sentAt: Date.UTC(2026, 10, 22, 12, 0, 0),
    state: 'created',
    when: 'always',
    ...fields,
  })
  it.each([
    ['sent', {}, true],
    ['unknown', {}, true],
    ['created', { lostEarlier: true }, true],
    ['created', {}, false],
    ['not sent', {}, false],
    ['refused', {}, false],
  ] as const)('%s %o: %s', (state, fields, expected) => {
    expect(mustSearch(record({ state, ...fields }))).toBe(expected)
  })
})
