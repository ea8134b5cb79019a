// The job summary's 128 KiB bound, counted in bytes: every summary, and its Markdown builder.
import { describe, expect, it } from '@jest/globals'
import {
  auditSummary,
  cleanupSummary,
  createSummary,
  listSummary,
  revokeSummary,
  Summary,
  SUMMARY_LIMIT_BYTES,
} from '../../../../src/report/summary.js'
import {
  audited,
  auditTask,
  cleanedUp,
  cleanupTask,
  created,
  createTask,
  listed,
  listTask,
} from '../../../fixtures/done.js'
import { token as record } from '../../../fixtures/token-api.js'

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
    const many = Array.from({ length: 50 }, (_, i) => record(`${name}-${i}`, name, 40))
    const summaries = [
      createSummary(
        created(record('id-1', name, 0, { mediatorId: name }), true),
        createTask({ name, envName: 'GW_TOKEN', revokeOnExit: 'always' }),
      ),
      revokeSummary({
        operation: 'revoke',
        token: record(name, name, 3, { state: 'revoked', revokedAt: name }),
        alreadyRevoked: true,
      }),
      listSummary(listed(many), listTask({ name: [name] })),
      cleanupSummary(
        cleanedUp({
          left: many,
          revoked: many,
          notRevoked: many.map((t) => ({ token: t, reason: name })),
          kept: many.map((t) => ({ token: t, why: 'keep' as const })),
        }),
        cleanupTask({ name: [name], olderThan: { text: name, ms: 1 }, keep: 1 }),
      ),
      auditSummary(
        audited({ findings: many, undated: many, total: 100 }),
        auditTask({ name: [name, name] }),
      ),
    ]
    for (const [i, summary] of summaries.entries()) {
      expect(Buffer.byteLength(summary)).toBeLessThan(SUMMARY_LIMIT_BYTES)
      expect(summary).toContain(i < 2 ? `<strong>${shown}</strong>` : `| ${shown} | <code>`)
      expectWhole(summary)
    }
  })

  it('cuts a table on bytes, not characters: rows of non-ASCII names', () => {
    const tokens = Array.from({ length: 3000 }, (_, i) =>
      record(`${i}`, `${'€'.repeat(99)}${i}`, 1),
    )
    const summary = listSummary(listed(tokens), listTask())
    expect(Buffer.byteLength(summary)).toBeLessThan(SUMMARY_LIMIT_BYTES)
    expect(Buffer.byteLength(summary)).toBeGreaterThan(SUMMARY_LIMIT_BYTES - 8 * 1024)
    // Counted in characters, rows would have gone on to about twice the limit in bytes.
    expect(summary.length).toBeLessThan(SUMMARY_LIMIT_BYTES * 0.6)
    const shown = summary.split('\n').filter((line) => line.startsWith('| €')).length
    expect(summary).toContain(`${3000 - shown} more not shown: a step summary must stay under`)
  })

  it('does not cut a small summary at all', () => {
    const revoked = record('id-9', 'ci|deploy', 3, { revokedAt: '2026-11-22T12:30:00Z' })
    expect(revokeSummary({ operation: 'revoke', token: revoked, alreadyRevoked: false })).toBe(
      '### Gateway token revoked\n\nRevoked gateway token <strong>ci&#124;deploy</strong> (<code>id-9</code>) at 2026-11-22 12:30 UTC.\n\n',
    )
  })

  it('makes rows only while they fit: a list of 100,000 is not escaped and dated whole', () => {
    let made = 0
    // A row is made when its cells are: its id is read once, for the Id column.
    const rows = Array.from({ length: 100_000 }, (_, i) => ({
      name: `${'x'.repeat(100)}${i}`,
      state: 'active',
      get id() {
        made++
        return `${i}`
      },
    }))
    const summary = new Summary('Heading').table('Rows', rows, [], 'see the log').toString()
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
      .table('Rows', [record('a', 'a', 0), record('b', 'b', 0)], [], 'see the log')
      .toString()
    expect(Buffer.byteLength(summary)).toBeLessThan(SUMMARY_LIMIT_BYTES)
    expect(summary).toMatch(
      /^### Heading\n\nNamed <code>&#124;€&#124;€.*€\.\.\.<\/code>\n\n#### Rows\n\n\| Name \| Id \|\n\| --- \| --- \|\n\n2 more not shown: a step summary must stay under 128 KiB; see the log\.\n\n$/,
    )
    expectWhole(summary)
  })

  it('says where every row is when a table is cut short, each table its own way', () => {
    const many = Array.from({ length: 1500 }, (_, i) =>
      record(`id-${i}`, `ci-${'x'.repeat(150)}`, 40),
    )
    const cleanup = cleanupSummary(
      cleanedUp({
        notRevoked: many.map((token) => ({ token, reason: 'POST x answered 403' })),
        left: many,
        kept: many.map((token) => ({ token, why: 'keep' as const })),
      }),
      cleanupTask(),
    )
    for (const whereAll of [
      'each has a warning in the log',
      'run the cleanup again to revoke them',
      'the log says how many were kept',
    ])
      expect(cleanup).toContain(
        `more not shown: a step summary must stay under 128 KiB; ${whereAll}.`,
      )
    const audit = auditSummary(audited({ findings: many, undated: many, total: 3000 }), auditTask())
    expect(audit).toContain(
      'more not shown: a step summary must stay under 128 KiB; each has a warning in the log.',
    )
    expect(audit).toContain(
      'more not shown: a step summary must stay under 128 KiB; the file named by the <code>tokensFile</code> output has all of them.',
    )
  })
})
