import { describe, expect, it } from '@jest/globals'
import type { ListTask } from '../../src/inputs.js'
import {
  createSummary,
  listSummary,
  revokeSummary,
  SUMMARY_LIMIT_BYTES,
  text,
} from '../../src/summary.js'
import { token } from '../fixtures/token-api.js'

const ALL: ListTask = { operation: 'list', name: undefined, state: 'all' }

describe('summaries', () => {
  it('create: a line naming the token and where its value is, never the value', () => {
    const created = token('id-1', 'ci-deploy', 0, { mediatorId: 'm-1' })
    const summary = createSummary({ operation: 'create', token: created, envName: 'GW_TOKEN' })
    expect(summary).toContain(
      '<strong>ci-deploy</strong> (<code>id-1</code>) for mediator <code>m-1</code>',
    )
    expect(summary).toContain('the environment variable <code>GW_TOKEN</code>')
    expect(summary).not.toContain('value-id-1')
  })

  it('revoke: a line with the token and when', () => {
    const revoked = token('id-1', 'ci-deploy', 3, {
      state: 'revoked',
      revokedAt: '2026-11-22T12:30:00Z',
    })
    expect(revokeSummary({ operation: 'revoke', token: revoked, alreadyRevoked: false })).toContain(
      'Revoked gateway token <strong>ci-deploy</strong> (<code>id-1</code>) at 2026-11-22 12:30 UTC.',
    )
  })

  it('list: a table of name, id, state, created, created by and revoked', () => {
    const tokens = [
      token('b', 'new', 1, { createdByEmail: 'bot@example.com' }),
      token('a', 'old', 30, {
        state: 'revoked',
        revokedAt: '2026-11-01T08:00:00Z',
        createdBy: 'u-1',
      }),
    ]
    const summary = listSummary({
      operation: 'list',
      tokens,
      total: 5,
      task: { ...ALL, name: 'ci-*', state: 'all' },
    })
    expect(summary).toContain('2 of 5 tokens match name <code>ci-&#42;</code>.')
    expect(summary).toContain('| Name | Id | State | Created | Created by | Revoked |')
    expect(summary).toContain(
      '| new | <code>b</code> | active | 2026-11-21 00:00 UTC | bot@example.com |  |',
    )
    expect(summary).toContain(
      '| old | <code>a</code> | revoked | 2026-10-23 00:00 UTC | u-1 | 2026-11-01 08:00 UTC |',
    )
    expect(summary).not.toContain('value-')
  })

  it('list: says so when nothing matches', () => {
    const summary = listSummary({
      operation: 'list',
      tokens: [],
      total: 3,
      task: { ...ALL, state: 'active' },
    })
    expect(summary).toBe('### Gateway tokens\n\n0 of 3 tokens match state <code>active</code>.\n\n')
  })

  it('list: stays under 128 KiB for any number of tokens, saying how many rows were left out', () => {
    const tokens = Array.from({ length: 5000 }, (_, i) =>
      token(`${i}`.padStart(36, '0'), `mediator-${i}`, i % 400),
    )
    const summary = listSummary({ operation: 'list', tokens, total: 5000, task: ALL })
    expect(Buffer.byteLength(summary)).toBeLessThan(SUMMARY_LIMIT_BYTES)
    const shown = summary.split('\n').filter((line) => line.startsWith('| mediator-')).length
    expect(shown).toBeGreaterThan(100)
    expect(summary).toContain(
      `${5000 - shown} more not shown: a step summary must stay under 128 KiB; the <code>tokens</code> output has all of them.`,
    )
  })

  it('escapes names so that they cannot break the table or add markup', () => {
    const evil = 'a|b`c`<img src=x onerror=alert(1)>*bold* [link](http://x) \n::error::x'
    const row = listSummary({
      operation: 'list',
      tokens: [token('x', evil, 0)],
      total: 1,
      task: ALL,
    })
      .split('\n')
      .find((line) => line.includes('<code>x</code>'))
    expect(row?.split('|')).toHaveLength(8)
    expect(row).not.toMatch(/[`*[\]]|<img|\n/)
    expect(text('a|b')).toBe('a&#124;b')
  })
})
