import { describe, expect, it } from '@jest/globals'
import { USER_ID } from '../support/fake-platform.mjs'
import { expectNoLeaks, revokeLine, runAgainst, useFakePlatform } from './helpers.js'

const platform = useFakePlatform()

describe('revoke (the committed bundle on Node 24)', () => {
  it('revokes with the id in both path and query, in two requests', async () => {
    const token = platform().seed({ name: 'ci-deploy' })
    const run = await runAgainst(platform(), { operation: 'revoke', tokenId: token.id })

    expect(run.exitCode).toBe(0)
    expect(platform().requestLines()).toEqual([
      'POST /idp/identity/resources/auth/v2/api-token',
      revokeLine(token.id),
    ])
    expect(platform().requests[1]?.body).toBe('')
    expect(platform().tokens.get(token.id)?.state).toBe('revoked')
  })

  it('outputs the revoked record, with revokedAt and revokedBy and no value', async () => {
    const token = platform().seed({ name: 'ci-deploy' })
    const run = await runAgainst(platform(), { operation: 'revoke', tokenId: token.id })
    const revoked = platform().tokens.get(token.id)

    expect(run.outputs).toMatchObject({
      tokenId: token.id,
      name: 'ci-deploy',
      mediatorId: token.mediatorId,
      projectId: token.projectId,
      state: 'revoked',
      createdAt: token.createdAt,
      revokedAt: revoked?.revokedAt,
      revokedBy: USER_ID,
    })
    expect(run.outputs).not.toHaveProperty('tokenValue')
    expect(JSON.parse(run.outputs.token ?? '')).toMatchObject({
      id: token.id,
      state: 'revoked',
      revokedBy: USER_ID,
    })
    expect(run.summary).toContain(
      `Revoked gateway token <strong>ci-deploy</strong> (<code>${token.id}</code>)`,
    )
    expectNoLeaks(run, [...platform().secrets(), token.tokenValue ?? ''])
  })
})
