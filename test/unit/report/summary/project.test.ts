// The summaries of list, cleanup and audit name the project of the records listed, so that a
// matrix over several projects gives tables one can tell apart.
import { describe, expect, it } from '@jest/globals'
import { auditSummary, cleanupSummary, listSummary } from '../../../../src/report/summary.js'
import type { ListedProject } from '../../../../src/shared/records.js'
import {
  audited,
  auditTask,
  cleanedUp,
  cleanupTask,
  listed,
  listTask,
} from '../../../fixtures/done.js'

const P = '6f1c2a8e-3b4d-4e5f-9a0b-1c2d3e4f5a6b'

/** The heading of each summary, for a list answer whose records tell `project`. */
function headings(project: ListedProject): string[] {
  return [
    listSummary(listed([], 0, project), listTask()),
    cleanupSummary(cleanedUp({ project }), cleanupTask()),
    cleanupSummary(cleanedUp({ project }), cleanupTask({ dryRun: true })),
    auditSummary(audited({ project }), auditTask()),
  ].map((summary) => summary.split('\n')[0] ?? '')
}

describe('the project in the summaries of list, cleanup and audit', () => {
  it('names the one project the records carry', () => {
    expect(headings({ id: P })).toEqual([
      `### Gateway tokens: project <code>${P}</code>`,
      `### Gateway token cleanup: project <code>${P}</code>`,
      `### Gateway token cleanup (dry run): project <code>${P}</code>`,
      `### Gateway token audit: project <code>${P}</code>`,
    ])
  })

  it('says several projects when the records carry more than one', () => {
    expect(headings('several')).toEqual([
      '### Gateway tokens: several projects',
      '### Gateway token cleanup: several projects',
      '### Gateway token cleanup (dry run): several projects',
      '### Gateway token audit: several projects',
    ])
  })

  it('says nothing of a project when the records do not tell', () => {
    expect(headings(undefined)).toEqual([
      '### Gateway tokens',
      '### Gateway token cleanup',
      '### Gateway token cleanup (dry run)',
      '### Gateway token audit',
    ])
  })

  it('escapes it like any text from the platform, on one line and cut short', () => {
    const [list] = headings({ id: `p|<b>*x*</b>\n### y${'z'.repeat(300)}` })
    expect(list).toBe(
      `### Gateway tokens: project <code>p&#124;&#60;b&#62;&#42;x&#42;&#60;/b&#62; ### y${'z'.repeat(179)}...</code>`,
    )
  })
})
