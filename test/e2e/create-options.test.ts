import { describe, expect, it } from '@jest/globals'
import { runAction } from '../support/runner.mjs'
import {
  AUTH,
  CREATE,
  expectCleanFailure,
  expectNoLeaks,
  LIST,
  revokeLine,
  runAgainst,
  useFakePlatform,
} from './helpers.js'

const platform = useFakePlatform()

describe('create with ifExists (the committed bundle on Node 24)', () => {
  it('reuse: outputs the newest active token with exactly this name, creating nothing', async () => {
    platform().seed({ name: 'ci-deploy', ageMs: 5 * 86_400_000 })
    const newest = platform().seed({ name: 'ci-deploy', ageMs: 86_400_000 })
    platform().seed({ name: 'ci-deploy-eu', ageMs: 0 })
    const run = await runAgainst(platform(), {
      operation: 'create',
      name: 'ci-deploy',
      ifExists: 'reuse',
      envName: 'GW_TOKEN',
    })

    expect(run.exitCode).toBe(0)
    expect(platform().requestLines()).toEqual([AUTH, LIST])
    expect(run.outputs).toMatchObject({
      tokenId: newest.id,
      tokenValue: newest.tokenValue,
      reused: 'true',
    })
    expect(run.env).toEqual({ GW_TOKEN: newest.tokenValue })
    expect(run.masked).toContain(newest.tokenValue)
    expect(run.summary).toContain('### Gateway token reused')
    expectNoLeaks(run, platform().secrets(), {
      allowedOutputs: ['tokenValue'],
      allowedEnv: ['GW_TOKEN'],
    })
  })

  it('reuse: creates a token when none with this name is active', async () => {
    platform().seed({ name: 'ci-deploy', state: 'revoked' })
    const run = await runAgainst(platform(), {
      operation: 'create',
      name: 'ci-deploy',
      ifExists: 'reuse',
    })
    expect(run.exitCode).toBe(0)
    expect(platform().requestLines()).toEqual([AUTH, LIST, CREATE])
    expect(run.outputs.reused).toBe('false')
    expect(platform().tokens.size).toBe(2)
  })

  it('fail: fails naming the existing token, creating nothing', async () => {
    const existing = platform().seed({ name: 'ci-deploy' })
    const run = await runAgainst(platform(), {
      operation: 'create',
      name: 'ci-deploy',
      ifExists: 'fail',
    })
    // The words: the golden messages of the unit tests (test/fixtures/golden.ts).
    const message = expectCleanFailure(run)
    expect(message).toMatch(/^create failed: an active token named 'ci-deploy' exists already: /)
    expect(message).toContain(`${existing.id}, created ${existing.createdAt}`)
    expect(message).toContain('ifExists is fail')
    expect(platform().requestLines()).toEqual([AUTH, LIST])
  })

  it('create (the default): always a new token, reused false, two requests', async () => {
    platform().seed({ name: 'ci-deploy' })
    const run = await runAgainst(platform(), { operation: 'create', name: 'ci-deploy' })
    expect(platform().requestLines()).toEqual([AUTH, CREATE])
    expect(run.outputs.reused).toBe('false')
  })
})

describe('revokeOnExit: the post step, as the runner runs it', () => {
  it('revokes the created token at the end of the job, authenticating again', async () => {
    const inputs = {
      ...platform().connectionInputs(),
      operation: 'create',
      name: 'pr-123',
      revokeOnExit: 'true',
    }
    const main = await runAction({ inputs })
    expect(main.exitCode).toBe(0)
    expect(Object.keys(main.state)).toEqual(['create'])
    expect(JSON.parse(main.state.create ?? '')).toEqual({
      name: 'pr-123',
      sentAt: expect.any(Number),
      lastInFlightAt: expect.any(Number),
      state: 'created',
      id: main.outputs.tokenId,
      lostEarlier: false,
      when: 'always',
    })
    expect(main.log).toContain('It will be revoked at the end of the job (revokeOnExit).')
    expect(platform().tokens.get(main.outputs.tokenId ?? '')?.state).toBe('active')

    const post = await runAction({ step: 'post', inputs, state: main.state })
    expect(post.exitCode).toBe(0)
    expect(post.log).toContain(
      `Revoked gateway token 'pr-123' (${main.outputs.tokenId}) at the end of the job (revokeOnExit).`,
    )
    expect(platform().tokens.get(main.outputs.tokenId ?? '')?.state).toBe('revoked')
    const id = main.outputs.tokenId ?? ''
    expect(platform().requestLines()).toEqual([AUTH, CREATE, AUTH, revokeLine(id)])
    expect(post.stdout.split('\n')[0]).toBe(`::add-mask::${platform().clientSecret}`)
    expectNoLeaks(post, platform().secrets())
  })

  it('never revokes a reused token', async () => {
    const existing = platform().seed({ name: 'shared' })
    const inputs = {
      ...platform().connectionInputs(),
      operation: 'create',
      name: 'shared',
      ifExists: 'reuse',
      revokeOnExit: 'true',
    }
    const main = await runAction({ inputs })
    expect(main.outputs.reused).toBe('true')
    expect(main.state).toEqual({})
    expect(main.log).toContain(
      'revokeOnExit does not apply: the token was reused, not created by this step.',
    )

    const post = await runAction({ step: 'post', inputs, state: main.state })
    expect(post.exitCode).toBe(0)
    // One line, no request: nothing was created.
    expect(post.log).toBe(
      'This step created no token (no create was sent, or an existing token was reused): nothing to revoke at the end of the job (revokeOnExit).\n',
    )
    expect(platform().requestLines()).toEqual([AUTH, LIST])
    expect(platform().tokens.get(existing.id)?.state).toBe('active')
  })

  it('does nothing and says nothing without revokeOnExit', async () => {
    const inputs = { ...platform().connectionInputs(), operation: 'create', name: 'kept' }
    const main = await runAction({ inputs })
    expect(main.state).toEqual({})
    const post = await runAction({ step: 'post', inputs, state: main.state })
    expect(post.exitCode).toBe(0)
    expect(post.stdout).toBe('')
    expect(platform().requestLines()).toEqual([AUTH, CREATE])
  })

  it('only warns, with the token id, when it cannot revoke at the end', async () => {
    const inputs = {
      ...platform().connectionInputs(),
      operation: 'create',
      name: 'pr-7',
      revokeOnExit: 'true',
      retries: '0',
    }
    const main = await runAction({ inputs })
    platform().fail({
      server: 'api',
      path: /\/revoke$/,
      status: 503,
      json: { error: 'maintenance' },
    })
    const post = await runAction({ step: 'post', inputs, state: main.state })
    const id = main.outputs.tokenId ?? ''
    expect(post.exitCode).toBe(0)
    expect(post.errors).toEqual([])
    const [warning, ...more] = post.warnings
    expect(more).toEqual([])
    expect(warning).toContain(`Could not revoke gateway token 'pr-7' (${id}) at the end of the job`)
    expect(warning).toContain(`POST ${platform().baseUrl}/api/tokens/${id}/revoke?tokenId=${id}`)
    expect(warning).toContain('answered 503 Service Unavailable: maintenance.')
    expect(warning).toContain(`operation: revoke and tokenId: ${id}`)
  })
})
