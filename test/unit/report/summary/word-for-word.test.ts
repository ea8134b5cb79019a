// The job summaries word for word: list, revoke and create as a workflow author reads them,
// fields the platform left out written empty; an audit's, which never says it would revoke.
import { describe, expect, it } from '@jest/globals'
import {
  auditSummary,
  createSummary,
  listSummary,
  revokeSummary,
} from '../../../../src/report/summary.js'
import {
  audited,
  auditTask,
  created,
  createTask,
  listed,
  listTask,
} from '../../../fixtures/done.js'
import { token } from '../../../fixtures/token-api.js'

const bare = token('id-1', 'ci', 2, { mediatorId: undefined, projectId: undefined })
const revoked = (fields = {}) => ({ ...bare, state: 'revoked' as const, ...fields })

describe('summaries, word for word', () => {
  it('create: a new token, its mediator, where its value is, and when it goes', () => {
    const token = { ...bare, mediatorId: 'med-1' }
    expect(
      createSummary(created(token), createTask({ envName: 'GW_TOKEN', revokeOnExit: 'always' })),
    ).toBe(
      '### Gateway token created\n\n' +
        'Created gateway token <strong>ci</strong> (<code>id-1</code>) for mediator <code>med-1</code>. ' +
        'Its value is in the step output <code>tokenValue</code> and the environment variable <code>GW_TOKEN</code>, masked in the log. ' +
        'It will be revoked at the end of the job (revokeOnExit).\n\n',
    )
  })

  it('create: a reused token, nothing said of its end', () => {
    expect(createSummary(created(bare, true), createTask({ revokeOnExit: 'always' }))).toBe(
      '### Gateway token reused\n\n' +
        `Reused gateway token <strong>ci</strong> (<code>id-1</code>), created ${new Date(Date.parse(bare.createdAt ?? '')).toISOString().replace('T', ' ').slice(0, 16)} UTC: no new token was created. ` +
        'Its value is in the step output <code>tokenValue</code>, masked in the log.\n\n',
    )
  })

  it('revoke: when it was revoked', () => {
    expect(
      revokeSummary({
        operation: 'revoke',
        token: revoked({ revokedAt: '2026-11-21T10:00:00Z' }),
        alreadyRevoked: false,
      }),
    ).toBe(
      '### Gateway token revoked\n\nRevoked gateway token <strong>ci</strong> (<code>id-1</code>) at 2026-11-21 10:00 UTC.\n\n',
    )
  })

  it('list without filters: how many, and the table of tokens; a name that is not text in italics', () => {
    const anon = token('id-2', 'x', 2, { name: undefined, mediatorId: undefined })
    expect(listSummary(listed([anon], 1), listTask())).toBe(
      '### Gateway tokens\n\n1 of 1 token.\n\n' +
        '#### Tokens\n\n| Name | Id | State | Created | Created by | Revoked |\n| --- | --- | --- | --- | --- | --- |\n' +
        `| <em>(a name that is not text)</em> | <code>id-2</code> | active | ${new Date(Date.parse(bare.createdAt ?? '')).toISOString().replace('T', ' ').slice(0, 16)} UTC |  |  |\n\n`,
    )
  })
})

describe('summary: audit', () => {
  const old = token('old', 'mediator-production', 120, { createdByEmail: 'ops@example.com' })
  const odd = token('odd', 'mediator-legacy', 0, { createdAt: 'last spring' })

  it('summary: the limit, a table of findings with ages, the undated apart, names escaped', () => {
    const sly = token('sly', 'a|b <img> `x` ::error::y', 200)
    const summary = auditSummary(
      audited({ findings: [old, sly], undated: [odd], total: 4 }),
      auditTask({ name: ['mediator-*', 'a|b*'] }),
    )
    expect(summary).toBe(
      '### Gateway token audit\n\n' +
        'Active tokens named <code>mediator-&#42;</code>, <code>a&#124;b&#42;</code>, older than 90d. 2 active tokens are older than 90d; 1 more cannot be dated.\n\n' +
        '#### Older than 90d\n\n| Name | Id | Age | Created by |\n| --- | --- | --- | --- |\n' +
        '| mediator-production | <code>old</code> | 120d | ops@example.com |\n' +
        '| a&#124;b &#60;img&#62; &#96;x&#96; ::error::y | <code>sly</code> | 200d |  |\n\n' +
        '#### Age unknown\n\n| Name | Id | Created | Why |\n| --- | --- | --- | --- |\n' +
        '| mediator-legacy | <code>odd</code> | last spring | its createdAt cannot be read |\n\n',
    )
    expect(summary).not.toMatch(/would revoke/i)
  })
})
