// readInputs: name as filters, one per line, for list, cleanup and audit; one line for create; audit's olderThan required.
import { describe, expect, it } from '@jest/globals'
import { read } from '../../../fixtures/inputs.js'
import { refusal } from '../../../fixtures/input-error.js'

const AUDIT_AGE =
  "Input 'olderThan' is required for operation audit: the age past which an active token is a finding (90d, 12h, 2w)."

describe('readInputs: name filters and the audit', () => {
  it.each(['list', 'cleanup', 'audit'])('%s reads name as the union of its lines', (operation) => {
    const given = { operation, name: 'preview-pr-7\n\n  preview-pr-9 \r\n', olderThan: '1d' }
    expect(read(given).inputs.task).toMatchObject({ name: ['preview-pr-7', 'preview-pr-9'] })
  })

  it('create refuses a name of two lines, naming the input, before anything else is read', () => {
    expect(refusal(() => read({ operation: 'create', name: 'a\nb' })).message).toBe(
      `Input 'name' must be one line for operation create: a token has one name (several lines are filters, for list, cleanup and audit); got "a\\nb".`,
    )
  })

  it('audit requires olderThan, and refuses one it cannot read', () => {
    expect(refusal(() => read({ operation: 'audit' })).message).toBe(AUDIT_AGE)
    expect(refusal(() => read({ operation: 'audit', name: 'ci-*', keep: '0' })).message).toBe(
      AUDIT_AGE,
    )
    expect(refusal(() => read({ operation: 'audit', olderThan: '90 days' })).message).toBe(
      `Input 'olderThan' must be a whole number and a unit, m, h, d or w (90m, 12h, 30d, 2w); got "90 days".`,
    )
    expect(read({ operation: 'audit', olderThan: '90d' }).inputs.task).toEqual({
      operation: 'audit',
      name: undefined,
      olderThan: { text: '90d', ms: 90 * 86_400_000 },
    })
  })
})
