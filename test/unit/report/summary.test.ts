import { describe, expect, it } from '@jest/globals'
import type { CleanupTask, ListTask } from '../../../src/inputs/task.js'
import {
  cleanupSummary,
  createSummary,
  listSummary,
  revokeSummary,
} from '../../../src/report/summary.js'
import {
  cutMarkdown,
  escapeMarkdown,
  Summary,
  SUMMARY_LIMIT_BYTES,
} from '../../../src/report/markdown.js'
import { formatAge } from '../../../src/shared/text.js'
import { token } from '../../fixtures/token-api.js'

const ALL: ListTask = { operation: 'list', name: undefined, state: 'all' }

describe('summaries', () => {
  it('create: a line naming the token and where its value is, never the value', () => {
    const created = token('id-1', 'ci-deploy', 0, { mediatorId: 'm-1' })
    const summary = createSummary({
      operation: 'create',
      token: created,
      envName: 'GW_TOKEN',
      reused: false,
      revokeOnExit: 'never',
      revokeOnExitSkipped: false,
    })
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
      `${5000 - shown} more not shown: a step summary must stay under 128 KiB; the file named by the <code>tokensFile</code> output has all of them.`,
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
    expect(escapeMarkdown('a|b')).toBe('a&#124;b')
    for (const c of '&<>"`\\*[]~$') expect(escapeMarkdown(c)).toBe(`&#${c.charCodeAt(0)};`)
    // `_` only where it could start or end emphasis.
    expect(escapeMarkdown('GW_TOKEN a_b _x_ __y')).toBe('GW_TOKEN a_b &#95;x&#95; &#95;&#95;y')
  })
})

describe('create and cleanup summaries', () => {
  it('create: says when a token was reused, and when it will be revoked at the end of the job', () => {
    const reused = createSummary({
      operation: 'create',
      token: token('id-1', 'ci', 3),
      envName: undefined,
      reused: true,
      revokeOnExit: 'never',
      revokeOnExitSkipped: false,
    })
    expect(reused).toMatch(
      /^### Gateway token reused\n\nReused gateway token <strong>ci<\/strong> .* created 2026-11-19 00:00 UTC: no new token was created\./,
    )
    const ephemeral = createSummary({
      operation: 'create',
      token: token('id-1', 'ci', 0),
      envName: undefined,
      reused: false,
      revokeOnExit: 'always',
      revokeOnExitSkipped: false,
    })
    expect(ephemeral).toContain('It will be revoked at the end of the job (revokeOnExit).')
  })

  const cleanupTask: CleanupTask = {
    operation: 'cleanup',
    name: 'ci-*',
    olderThan: { text: '30d', ms: 30 * 86_400_000 },
    keep: 1,
    dryRun: false,
    concurrency: 4,
  }
  const NOW = Date.UTC(2026, 10, 22)

  it('cleanup: the selection, then tables of what was not revoked, revoked and kept', () => {
    const summary = cleanupSummary({
      operation: 'cleanup',
      task: cleanupTask,
      now: NOW,
      left: [],
      revokedElsewhere: [],
      ages: { by: 'platform', skewMs: 0 },
      stop: { by: 'totalTimeout' as const, totalMs: 900_000 },
      revoked: [token('r1', 'ci-a', 45.5, { createdByEmail: 'bot@example.com', state: 'revoked' })],
      notRevoked: [
        { token: token('n1', 'ci-b', 60), reason: 'POST x answered 403 Forbidden: not yours.' },
      ],
      kept: [
        { token: token('k1', 'ci-a', 1), why: 'keep' },
        { token: token('k2', 'ci-c', 0, { createdAt: 'soon' }), why: 'unreadable date' },
      ],
    })
    expect(summary).toBe(
      '### Gateway token cleanup\n\n' +
        'Selected active tokens named <code>ci-&#42;</code>, older than 30d, keeping the 1 newest of each name. Revoked 1 token; 1 could not be revoked.\n\n' +
        '#### Not revoked\n\n| Name | Id | Why |\n| --- | --- | --- |\n| ci-b | <code>n1</code> | POST x answered 403 Forbidden: not yours. |\n\n' +
        '#### Revoked\n\n| Name | Id | Age | Created by |\n| --- | --- | --- | --- |\n| ci-a | <code>r1</code> | 45d 12h | bot@example.com |\n\n' +
        '#### Kept\n\n| Name | Id | Age | Why |\n| --- | --- | --- | --- |\n' +
        '| ci-a | <code>k1</code> | 1d | the newest of its name (keep: 1); keep: 0 revokes it too |\n| ci-c | <code>k2</code> | unknown | its createdAt cannot be read |\n\n',
    )
  })

  it('cleanup: a dry run is marked as one', () => {
    const summary = cleanupSummary({
      operation: 'cleanup',
      task: { ...cleanupTask, dryRun: true, name: undefined, keep: 0 },
      now: NOW,
      left: [],
      revokedElsewhere: [],
      ages: { by: 'platform', skewMs: 0 },
      stop: { by: 'totalTimeout' as const, totalMs: 900_000 },
      revoked: [token('r1', 'ci-a', 40)],
      notRevoked: [],
      kept: [],
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
        token(`${prefix}-${i}`.padEnd(36, '0'), `mediator-${i}`, 40),
      )
    const summary = cleanupSummary({
      operation: 'cleanup',
      task: cleanupTask,
      now: NOW,
      left: [],
      revokedElsewhere: [],
      ages: { by: 'platform', skewMs: 0 },
      stop: { by: 'totalTimeout' as const, totalMs: 900_000 },
      revoked: many('r', 3000),
      notRevoked: many('n', 500).map((t) => ({ token: t, reason: 'x'.repeat(300) })),
      kept: many('k', 3000).map((t) => ({ token: t, why: 'keep' as const })),
    })
    expect(Buffer.byteLength(summary)).toBeLessThan(SUMMARY_LIMIT_BYTES)
    expect(summary).toMatch(
      /\d+ more not shown: a step summary must stay under 128 KiB; the file named by the <code>tokensFile<\/code> output has all of them\./,
    )
  })

  it('cleanup cut short by totalTimeout: lists what was left, and says how to finish', () => {
    const base = {
      operation: 'cleanup' as const,
      task: cleanupTask,
      now: NOW,
      revokedElsewhere: [],
      ages: { by: 'platform' as const, skewMs: 0 },
      stop: { by: 'totalTimeout' as const, totalMs: 60_000 },
      revoked: [token('r-1', 'ci-r', 40)],
      notRevoked: [],
      kept: [],
    }
    const summary = cleanupSummary({ ...base, left: [token('l-1', 'ci-left', 50)] })
    expect(summary).toContain('Revoked 1 token; 1 left when totalTimeout ran out.')
    expect(summary).toContain(
      '#### Left active: totalTimeout ran out\n\n| Name | Id | Age |\n| --- | --- | --- |\n| ci-left | <code>l-1</code> | 50d |',
    )
    const cancelled = cleanupSummary({
      ...base,
      stop: { by: 'cancel', signal: 'SIGINT' },
      left: [token('l-1', 'ci-left', 50)],
    })
    expect(cancelled).toContain('Revoked 1 token; 1 left when the step was cancelled.')
    expect(cancelled).toContain('#### Left active: the step was cancelled\n')
    expect(cancelled).toContain('| ci-r | <code>r-1</code>')
    const whole = cleanupSummary({ ...base, left: [] })
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

describe('the 128 KiB bound, in bytes', () => {
  // Every & starts a whole escape, every tag opened is closed, no character is halved.
  const expectWhole = (summary: string) => {
    expect(summary).not.toMatch(/&(?!#\d+;)|[\ud800-\udbff](?![\udc00-\udfff])/)
    for (const tag of ['code', 'strong'])
      expect(summary.split(`<${tag}>`).length).toBe(summary.split(`</${tag}>`).length)
  }

  // Each field is cut to 200 characters before it is escaped.
  it.each([
    ['a 140 KB name', `ci-deploy-${'x'.repeat(140_000)}`, `ci-deploy-${'x'.repeat(187)}...`],
    ['a name of 70,000 €', '€'.repeat(70_000), `${'€'.repeat(197)}...`],
    ['a name of 140,000 |', '|'.repeat(140_000), `${'&#124;'.repeat(197)}...`],
  ])('every summary stays under the limit with %s, showing its start', (_, name, shown) => {
    const many = Array.from({ length: 50 }, (_, i) => token(`${name}-${i}`, name, 40))
    const cleanup = { operation: 'cleanup', keep: 1, dryRun: false, concurrency: 4 } as const
    const summaries = [
      createSummary({
        operation: 'create',
        token: token('id-1', name, 0, { mediatorId: name }),
        ...{
          envName: 'GW_TOKEN',
          reused: true,
          revokeOnExit: 'always',
          revokeOnExitSkipped: false,
        },
      }),
      revokeSummary({
        operation: 'revoke',
        token: token(name, name, 3, { state: 'revoked', revokedAt: name }),
        alreadyRevoked: true,
      }),
      listSummary({ operation: 'list', tokens: many, total: 50, task: { ...ALL, name } }),
      cleanupSummary({
        operation: 'cleanup',
        task: { ...cleanup, name, olderThan: { text: name, ms: 1 } },
        now: Date.UTC(2026, 10, 22),
        revokedElsewhere: [],
        ages: { by: 'platform', skewMs: 0 },
        stop: { by: 'totalTimeout' as const, totalMs: 900_000 },
        left: many,
        revoked: many,
        notRevoked: many.map((t) => ({ token: t, reason: name })),
        kept: many.map((t) => ({ token: t, why: 'keep' as const })),
      }),
    ]
    for (const [i, summary] of summaries.entries()) {
      expect(Buffer.byteLength(summary)).toBeLessThan(SUMMARY_LIMIT_BYTES)
      expect(summary).toContain(i < 2 ? `<strong>${shown}</strong>` : `| ${shown} | <code>`)
      expectWhole(summary)
    }
  })

  it('cuts a table on bytes, not characters: rows of non-ASCII names', () => {
    const tokens = Array.from({ length: 3000 }, (_, i) => token(`${i}`, `${'€'.repeat(99)}${i}`, 1))
    const summary = listSummary({ operation: 'list', tokens, total: 3000, task: ALL })
    expect(Buffer.byteLength(summary)).toBeLessThan(SUMMARY_LIMIT_BYTES)
    expect(Buffer.byteLength(summary)).toBeGreaterThan(SUMMARY_LIMIT_BYTES - 8 * 1024)
    // Counted in characters, rows would have gone on to about twice the limit in bytes.
    expect(summary.length).toBeLessThan(SUMMARY_LIMIT_BYTES * 0.6)
    const shown = summary.split('\n').filter((line) => line.startsWith('| €')).length
    expect(summary).toContain(`${3000 - shown} more not shown: a step summary must stay under`)
  })

  it('does not cut a small summary at all', () => {
    const revoked = token('id-9', 'ci|deploy', 3, { revokedAt: '2026-11-22T12:30:00Z' })
    expect(revokeSummary({ operation: 'revoke', token: revoked, alreadyRevoked: false })).toBe(
      '### Gateway token revoked\n\nRevoked gateway token <strong>ci&#124;deploy</strong> (<code>id-9</code>) at 2026-11-22 12:30 UTC.\n\n',
    )
  })

  it('makes rows only while they fit: a list of 100,000 is not escaped and dated whole', () => {
    let made = 0
    const items = Array.from({ length: 100_000 }, (_, i) => i)
    const summary = new Summary('Heading')
      .table(
        'Rows',
        ['A'],
        items,
        (i) => {
          made++
          return [`${'x'.repeat(100)}${i}`]
        },
        'see the log',
      )
      .toString()
    const shown = (summary.match(/^\| x/gm) ?? []).length
    expect(shown).toBeGreaterThan(1_000)
    // The rows shown, and the one that no longer fitted.
    expect(made).toBe(shown + 1)
    expect(summary).toContain(`${100_000 - shown} more not shown`)
  })

  // Every field is cut to 200 characters, so only the builder itself can be given more.
  it('the builder cuts a paragraph that would pass the limit, and a table after it says so', () => {
    const summary = new Summary('Heading')
      .paragraph(`Named <code>${'&#124;€'.repeat(30_000)}</code> <strong>x</strong>.`)
      .table('Rows', ['A'], ['a', 'b'], (a) => [a], 'see the log')
      .toString()
    expect(Buffer.byteLength(summary)).toBeLessThan(SUMMARY_LIMIT_BYTES)
    expect(summary).toMatch(
      /^### Heading\n\nNamed <code>&#124;€&#124;€.*€\.\.\.<\/code>\n\n#### Rows\n\n\| A \|\n\| --- \|\n\n2 more not shown: a step summary must stay under 128 KiB; see the log\.\n\n$/,
    )
    expectWhole(summary)
  })

  it('cuts Markdown between characters, escapes and tags, closing the tags left open', () => {
    expect(cutMarkdown('ab<code>cd&#124;ef</code>gh', 20)).toBe('ab<code>cd...</code>')
    expect(cutMarkdown('ab<code>cd&#124;ef</code>gh', 26)).toBe('ab<code>cd&#124;...</code>')
    expect(cutMarkdown('ab<code>c</code>d', 19)).toBe('ab<code>c</code>d')
    expect(cutMarkdown('€€€€', 8)).toBe('€...')
    expect(cutMarkdown('😀😀', 6)).toBe('...')
    expect(cutMarkdown('abc', 2)).toBeUndefined()
  })
})
