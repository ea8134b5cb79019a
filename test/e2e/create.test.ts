import { describe, expect, it } from '@jest/globals'
import { PROJECT_ID, USER_EMAIL, USER_ID } from '../support/fake-platform.mjs'
import { expectNoLeaks, runAgainst, useFakePlatform } from './helpers.js'

const platform = useFakePlatform()

describe('create (the committed bundle on Node 24)', () => {
  it('sets every output from the created record, the value in tokenValue only', async () => {
    const run = await runAgainst(platform(), { operation: 'create', name: 'ci-deploy' })

    expect(run.exitCode).toBe(0)
    const [created] = [...platform().tokens.values()]
    expect(created).toBeDefined()
    if (created === undefined) return
    expect(run.outputs).toEqual({
      tokenId: created.id,
      tokenValue: created.tokenValue,
      reused: 'false',
      tokenFile: '',
      name: 'ci-deploy',
      mediatorId: created.mediatorId,
      projectId: PROJECT_ID,
      state: 'active',
      createdAt: created.createdAt,
      token: JSON.stringify({
        id: created.id,
        name: 'ci-deploy',
        state: 'active',
        mediatorId: created.mediatorId,
        projectId: PROJECT_ID,
        createdBy: USER_ID,
        createdByEmail: USER_EMAIL,
        createdAt: created.createdAt,
      }),
    })
    expect(run.env).toEqual({})
  })

  it('sends exactly two requests: authentication, then the create', async () => {
    await runAgainst(platform(), { operation: 'create', name: 'ci-deploy' })
    expect(platform().requestLines()).toEqual([
      'POST /idp/identity/resources/auth/v2/api-token',
      'POST /api/tokens',
    ])
    const [auth, create] = platform().requests
    expect(JSON.parse(auth?.body ?? '')).toEqual({
      clientId: platform().clientId,
      secret: platform().clientSecret,
    })
    expect(create?.headers['content-type']).toBe('application/json')
    expect(JSON.parse(create?.body ?? '')).toEqual({ name: 'ci-deploy' })
  })

  it('masks the client secret first, and every other secret before it appears anywhere', async () => {
    const run = await runAgainst(platform(), { operation: 'create', name: 'ci-deploy' })
    const value = run.outputs.tokenValue ?? ''

    expect(run.stdout.split('\n')[0]).toBe(`::add-mask::${platform().clientSecret}`)
    expect(run.masked).toEqual(expect.arrayContaining(platform().secrets()))
    expect(run.masked).toContain(value)
    expectNoLeaks(run, platform().secrets(), { allowedOutputs: ['tokenValue'] })
    expect(run.log).toContain("Created gateway token 'ci-deploy'")
  })

  it('also exports the value into the environment variable named by envName', async () => {
    const run = await runAgainst(platform(), {
      operation: 'create',
      name: 'ci-deploy',
      envName: 'MEDIATOR_GATEWAY_TOKEN',
    })
    expect(run.exitCode).toBe(0)
    expect(run.env).toEqual({ MEDIATOR_GATEWAY_TOKEN: run.outputs.tokenValue })
    expectNoLeaks(run, platform().secrets(), {
      allowedOutputs: ['tokenValue'],
      allowedEnv: ['MEDIATOR_GATEWAY_TOKEN'],
    })
    expect(run.log).toContain(
      'The token value is in the environment variable MEDIATOR_GATEWAY_TOKEN',
    )
  })

  it('writes a one-line summary without the value', async () => {
    const run = await runAgainst(platform(), { operation: 'create', name: 'ci-deploy' })
    expect(run.summary).toMatch(
      /^### Gateway token created\n\nCreated gateway token <strong>ci-deploy<\/strong> \(<code>[0-9a-f-]{36}<\/code>\)/,
    )
    expect(run.summary).not.toContain(run.outputs.tokenValue)
  })

  it('writes no summary with summary: false', async () => {
    const run = await runAgainst(platform(), {
      operation: 'create',
      name: 'ci-deploy',
      summary: 'false',
    })
    expect(run.exitCode).toBe(0)
    expect(run.summary).toBe('')
  })

  it('reaches an API under a path prefix and an auth endpoint given in full', async () => {
    await platform().close()
    const { startFakePlatform } = await import('../support/fake-platform.mjs')
    const prefixed = await startFakePlatform({
      apiPrefix: '/platform/v1',
      authPath: '/frontegg/identity/resources/auth/v2/api-token',
    })
    try {
      const run = await runAgainst(prefixed, {
        operation: 'create',
        name: 'ci-deploy',
        baseUrl: `${prefixed.baseUrl}/`,
        authUrl: `${prefixed.authUrl}/frontegg/identity/resources/auth/v2/api-token`,
      })
      expect(run.exitCode).toBe(0)
      expect(prefixed.requestLines()).toEqual([
        'POST /frontegg/identity/resources/auth/v2/api-token',
        'POST /platform/v1/api/tokens',
      ])
    } finally {
      await prefixed.close()
    }
  })
})
