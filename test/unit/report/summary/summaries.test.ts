// The job summary of each operation: what it says, escaped (limit.test.ts: its size).
import { describe, expect, it } from '@jest/globals'
import {
  cleanupSummary,
  createSummary,
  listSummary,
  revokeSummary,
  SUMMARY_LIMIT_BYTES,
} from '../../../../src/report/summary.js'
import { revokeOnExitNote } from '../../../../src/report/wording.js'
import { formatAge } from '../../../../src/shared/text.js'
import {
  cleanedUp,
  cleanupTask,
  created,
  createTask,
  listed,
  listTask,
} from '../../../fixtures/done.js'
import { token as record } from '../../../fixtures/token-api.js'

describe('summaries', () => {
  it('create: a line naming the token and where its value is, never the value', () => {
    const token = record('id-1', 'ci-deploy', 0, { mediatorId: 'm-1' })
    const summary = createSummary(created(token), createTask({ envName: 'GW_TOKEN' }))
    expect(summary).toContain(
      '<strong>ci-deploy</strong> (<code>id-1</code>) for mediator <code>m-1</code>',
    )
    expect(summary).toContain('the environment variable <code>GW_TOKEN</code>')
    expect(summary).not.toContain('value-id-1')
  })

  it('revoke: a line with the token and when', () => {
    const revoked = record('id-1', 'ci-deploy', 3, {
      state: 'revoked',
      revokedAt: '2026-11-22T12:30:00Z',
    })
    expect(revokeSummary({ operation: 'revoke', token: revoked, alreadyRevoked: false })).toContain(
      'Revoked gateway token <strong>ci-deploy</strong> (<code>id-1</code>) at 2026-11-22 12:30 UTC.',
    )
  })

  it('list: a table of name, id, state, created, created by and revoked', () => {
    const tokens = [
      record('b', 'new', 1, { createdByEmail: 'bot@example.com' }),
      record('a', 'old', 30, {
        state: 'revoked',
        revokedAt: '2026-11-01T08:00:00Z',
        createdBy: 'u-1',
      }),
    ]
    const summary = listSummary(listed(tokens, 5), listTask({ name: ['ci-*'], state: 'all' }))
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
    const summary = listSummary(listed([], 3), listTask({ state: 'active' }))
    expect(summary).toBe('### Gateway tokens\n\n0 of 3 tokens match state <code>active</code>.\n\n')
  })

  it('list: stays under 128 KiB for any number of tokens, saying how many rows were left out', () => {
    const tokens = Array.from({ length: 5000 }, (_, i) =>
      record(`${i}`.padStart(36, '0'), `mediator-${i}`, i % 400),
    )
    const summary = listSummary(listed(tokens, 5000), listTask())
    expect(Buffer.byteLength(summary)).toBeLessThan(SUMMARY_LIMIT_BYTES)
    const shown = summary.split('\n').filter((line) => line.startsWith('| mediator-')).length
    expect(shown).toBeGreaterThan(100)
    expect(summary).toContain(
      `${5000 - shown} more not shown: a step summary must stay under 128 KiB; the file named by the <code>tokensFile</code> output has all of them.`,
    )
  })

  it('escapes names so that they cannot break the table or add markup', () => {
    const evil = 'a|b`c`<img src=x onerror=alert(1)>*bold* [link](http://x) \n::error::x'
    const row = listSummary(listed([record('x', evil, 0)]), listTask())
      .split('\n')
      .find((line) => line.includes('<code>x</code>'))
    expect(row?.split('|')).toHaveLength(8)
    expect(row).not.toMatch(/[`*[\]]|<img|\n/)
  })
})

describe('create and cleanup summaries', () => {
  it('create: says when a token was reused, and when it will be revoked at the end of the job', () => {
    const reused = createSummary(created(record('id-1', 'ci', 3), true), createTask())
    expect(reused).toMatch(
      /^### Gateway token reused\n\nReused gateway token <strong>ci<\/strong> .* created 2026-11-19 00:00 UTC: no new token was created\./,
    )
    const ephemeral = createSummary(
      created(record('id-1', 'ci', 0)),
      createTask({ revokeOnExit: 'always' }),
    )
    expect(ephemeral).toContain('It will be revoked at the end of the job (revokeOnExit).')
    const onFailure = createSummary(
      created(record('id-1', 'ci', 0)),
      createTask({ revokeOnExit: 'failure' }),
    )
    // The words of the note: test/unit/report/wording/golden-messages.test.ts.
    expect(onFailure).toContain(revokeOnExitNote('failure'))
    expect(onFailure).toContain('(revokeOnExit: failure)')
    // A reused token was never this step's: revokeOnExit asked for or not, it stays.
    for (const revokeOnExit of ['always', 'failure'] as const) {
      const kept = createSummary(
        created(record('id-1', 'ci', 3), true),
        createTask({ revokeOnExit }),
      )
      expect(kept).toBe(reused)
      expect(kept).not.toContain('revoked at the end of the job')
    }
  })

  const task = cleanupTask({ name: ['ci-*'], keep: 1 })

  it('cleanup: the selection, then tables of what was not revoked, revoked and kept', () => {
    const summary = cleanupSummary(
      cleanedUp({
        revoked: [
          record('r1', 'ci-a', 45.5, { createdByEmail: 'bot@example.com', state: 'revoked' }),
        ],
        notRevoked: [
          { token: record('n1', 'ci-b', 60), reason: 'POST x answered 403 Forbidden: not yours.' },
        ],
        kept: [
          { token: record('k1', 'ci-a', 1), why: 'keep' },
          { token: record('k3', 'ci-d', 2), why: 'keep', soleOfName: true },
          { token: record('k2', 'ci-c', 0, { createdAt: 'soon' }), why: 'unreadable date' },
        ],
      }),
      task,
    )
    expect(summary).toBe(
      '### Gateway token cleanup\n\n' +
        'Selected active tokens named <code>ci-&#42;</code>, older than 30d, keeping the 1 newest of each name. Revoked 1 token; 1 could not be revoked.\n\n' +
        '#### Not revoked\n\n| Name | Id | Why |\n| --- | --- | --- |\n| ci-b | <code>n1</code> | POST x answered 403 Forbidden: not yours. |\n\n' +
        '#### Revoked\n\n| Name | Id | Age | Created by |\n| --- | --- | --- | --- |\n| ci-a | <code>r1</code> | 45d 12h | bot@example.com |\n\n' +
        '#### Kept\n\n| Name | Id | Age | Why |\n| --- | --- | --- | --- |\n' +
        '| ci-a | <code>k1</code> | 1d | the newest of its name (keep: 1) |\n' +
        '| ci-d | <code>k3</code> | 2d | the newest of its name (keep: 1); the only token its name has: keep: 0 revokes it too |\n| ci-c | <code>k2</code> | unknown | its createdAt cannot be read |\n\n',
    )
  })

  it('cleanup: says it spares the ids of keepIds, and names each token kept for that', () => {
    const kept = [{ token: record('k1', 'ci-a', 3), why: 'keepIds' as const }]
    const one = cleanupSummary(cleanedUp({ kept }), { ...task, keepIds: ['k1'] })
    expect(one).toContain(
      'Selected active tokens named <code>ci-&#42;</code>, older than 30d, keeping the 1 newest of each name, never the token id in keepIds. Revoked 0 tokens.',
    )
    expect(one).toContain('| ci-a | <code>k1</code> | 3d | its id is in keepIds |')
    const two = cleanupSummary(cleanedUp(), { ...task, keep: 0, keepIds: ['k1', 'k2'] })
    expect(two).toContain('older than 30d, never the 2 token ids in keepIds.')
  })

  it('cleanup: a dry run is marked as one', () => {
    const summary = cleanupSummary(cleanedUp({ revoked: [record('r1', 'ci-a', 40)] }), {
      ...task,
      dryRun: true,
      name: undefined,
      keep: 0,
    })
    expect(summary).toContain('### Gateway token cleanup (dry run)')
    expect(summary).toContain(
      'Selected active tokens of any name, older than 30d. Dry run: 1 token would be revoked; nothing was revoked.',
    )
    expect(summary).toContain('#### Would revoke')
  })

  it('cleanup: stays under 128 KiB with thousands of rows in several tables', () => {
    const many = (prefix: string, n: number) =>
      Array.from({ length: n }, (_, i) =>
        record(`${prefix}-${i}`.padEnd(36, '0'), `mediator-${i}`, 40),
      )
    const summary = cleanupSummary(
      cleanedUp({
        revoked: many('r', 3000),
        notRevoked: many('n', 500).map((t) => ({ token: t, reason: 'x'.repeat(300) })),
        kept: many('k', 3000).map((t) => ({ token: t, why: 'keep' as const })),
      }),
      task,
    )
    expect(Buffer.byteLength(summary)).toBeLessThan(SUMMARY_LIMIT_BYTES)
    expect(summary).toMatch(
      /\d+ more not shown: a step summary must stay under 128 KiB; the file named by the <code>tokensFile<\/code> output has all of them\./,
    )
  })

  it('cleanup cut short by totalTimeout: lists what was left, and says how to finish', () => {
    const base = {
      stop: { by: 'totalTimeout' as const, totalMs: 60_000 },
      revoked: [record('r-1', 'ci-r', 40)],
    }
    const summary = cleanupSummary(
      cleanedUp({ ...base, left: [record('l-1', 'ci-left', 50)] }),
      task,
    )
    expect(summary).toContain('Revoked 1 token; 1 left when totalTimeout ran out.')
    expect(summary).toContain(
      '#### Left active: totalTimeout ran out\n\n| Name | Id | Age |\n| --- | --- | --- |\n| ci-left | <code>l-1</code> | 50d |',
    )
    const cancelled = cleanupSummary(
      cleanedUp({
        ...base,
        stop: { by: 'cancel', signal: 'SIGINT' },
        left: [record('l-1', 'ci-left', 50)],
      }),
      task,
    )
    expect(cancelled).toContain('Revoked 1 token; 1 left when the step was cancelled.')
    expect(cancelled).toContain('#### Left active: the step was cancelled\n')
    expect(cancelled).toContain('| ci-r | <code>r-1</code>')
    const whole = cleanupSummary(cleanedUp({ ...base, left: [] }), task)
    expect(whole).toContain('Revoked 1 token.')
    expect(whole).not.toContain('totalTimeout')
  })

  it('formats ages with their two largest units', () => {
    expect([0, 59_000, 90 * 60_000, 26 * 3_600_000, 45 * 86_400_000].map(formatAge)).toEqual([
      '0m',
      '0m',
      '1h 30m',
      '1d 2h',
      '45d',
    ])
  })
})
