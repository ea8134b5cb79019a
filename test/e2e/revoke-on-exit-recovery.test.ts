import { describe, expect, it } from '@jest/globals'
import { runAction } from '../support/runner.mjs'
import {
  AUTH,
  CREATE,
  expectCleanFailure,
  expectNoLeaks,
  LIST,
  revokeLine,
  useFakePlatform,
} from './helpers.js'

const platform = useFakePlatform()

/** The platform makes the token, but the connection resets before its answer. */
const answerLost = () => {
  platform().fail({
    server: 'api',
    method: 'POST',
    path: '/api/tokens',
    commit: true,
    drop: 'reset',
  })
}

describe('revokeOnExit leaves nothing behind when the create lost its answer (the committed bundle)', () => {
  /**
   * The platform creates the token but the connection resets before the answer, and
   * the list that would find it answers 503 on every attempt of the main step.
   */
  async function lostCreate(inputs: Record<string, string>) {
    answerLost()
    // One list per attempt of the main step (retries: 1): the post step then finds the platform well.
    platform().fail({ server: 'api', method: 'GET', path: '/api/tokens', status: 503, times: 2 })
    const main = await runAction({ inputs })
    const message = expectCleanFailure(main)
    expect(message).toMatch(/^create failed: /)
    expect(message).toContain("whether token 'pr-9' was created is unknown")
    expect(platform().faultsLeft()).toBe(0)
    return main
  }

  it('the post step finds the one token of that name created since the step began, and revokes it', async () => {
    const older = platform().seed({ name: 'pr-9', ageMs: 10 * 60_000 })
    const inputs = {
      ...platform().connectionInputs(),
      operation: 'create',
      name: 'pr-9',
      revokeOnExit: 'true',
      retries: '1',
    }
    const main = await lostCreate(inputs)
    const created = [...platform().tokens.values()].filter((t) => t.id !== older.id)
    expect(created).toHaveLength(1)
    const id = created[0]?.id ?? ''
    expect(platform().tokens.get(id)?.state).toBe('active')
    // Written, and no answer said what became of it: the post step looks.
    expect(JSON.parse(main.state.create ?? '')).toEqual({
      name: 'pr-9',
      sentAt: expect.any(Number),
      lastInFlightAt: expect.any(Number),
      state: 'unknown',
      when: 'always',
    })

    const post = await runAction({ step: 'post', inputs, state: main.state })
    expect(post.exitCode).toBe(0)
    expect(post.warnings).toEqual([])
    expect(post.log).toContain(
      `Revoked gateway token 'pr-9' (${id}) at the end of the job (revokeOnExit).`,
    )
    expect(platform().tokens.get(id)?.state).toBe('revoked')
    // The older token of the same name was made before the step: not this step's.
    expect(platform().tokens.get(older.id)?.state).toBe('active')
    expect(platform().requestLines().slice(-3)).toEqual([AUTH, LIST, revokeLine(id)])
    expectNoLeaks(post, platform().secrets())
  })

  it('with two tokens of that name created since, it revokes neither and warns naming both', async () => {
    const inputs = {
      ...platform().connectionInputs(),
      operation: 'create',
      name: 'pr-9',
      revokeOnExit: 'true',
      retries: '1',
    }
    const main = await lostCreate(inputs)
    // Another job made one of the same name meanwhile.
    platform().seed({ name: 'pr-9' })
    const ids = [...platform().tokens.keys()]
    expect(ids).toHaveLength(2)
    const post = await runAction({ step: 'post', inputs, state: main.state })
    expect(post.exitCode).toBe(0)
    expect(post.warnings).toHaveLength(1)
    expect(post.warnings[0]).toMatch(/could not tell which one this step created: /)
    for (const id of ids) {
      expect(post.warnings[0]).toContain(id)
      expect(platform().tokens.get(id)?.state).toBe('active')
    }
    expect(platform().requestLines().at(-1)).toBe(LIST)
  })

  it('creating with no fault, the post step revokes by id and lists nothing', async () => {
    const inputs = {
      ...platform().connectionInputs(),
      operation: 'create',
      name: 'pr-9',
      revokeOnExit: 'true',
    }
    const main = await runAction({ inputs })
    expect(main.exitCode).toBe(0)
    const id = main.outputs.tokenId ?? ''
    await runAction({ step: 'post', inputs, state: main.state })
    expect(platform().requestLines()).toEqual([AUTH, CREATE, AUTH, revokeLine(id)])
  })
})

describe('a create the platform finishes late, or a list that lags behind it (issue 18, case 2)', () => {
  const inputs = () => ({
    ...platform().connectionInputs(),
    operation: 'create',
    name: 'pr-9',
    revokeOnExit: 'true',
  })

  it('the post step keeps looking while the create may land, and revokes its token', async () => {
    // The answer is lost, and the platform makes the token 1.5 s later: after the main step.
    platform().fail({
      server: 'api',
      method: 'POST',
      path: '/api/tokens',
      drop: 'reset',
      commitAfterMs: 1_500,
    })
    const main = await runAction({ inputs: { ...inputs(), retries: '0' } })
    expect(expectCleanFailure(main)).toMatch(/^create failed: /)
    expect(platform().tokens.size).toBe(0)

    const post = await runAction({ step: 'post', inputs: inputs(), state: main.state })
    expect(post.exitCode).toBe(0)
    expect(post.warnings).toEqual([])
    const [token] = [...platform().tokens.values()]
    expect(token?.state).toBe('revoked')
    expect(post.log).toContain("No token named 'pr-9' in the list yet; a create can land late")
    expect(post.log).toContain(
      `Revoked gateway token 'pr-9' (${token?.id ?? ''}) at the end of the job (revokeOnExit).`,
    )
    expectNoLeaks(post, platform().secrets())
  })

  it('a create sent again past a lagging list: the post step revokes both', async () => {
    // The platform makes the token but the answer is lost, and its list shows a token a second late.
    answerLost()
    platform().listLagMs = 1_000
    const main = await runAction({ inputs: inputs() })
    expect(main.exitCode).toBe(0)
    const tokens = [...platform().tokens.values()]
    expect(tokens).toHaveLength(2)
    const [first, second] = tokens
    expect(main.outputs.tokenId).toBe(second?.id)
    // The post step looks for the first attempt's token: no warning in the main step.
    expect(main.warnings).toEqual([])
    expect(main.log).toContain('the post step looks for a token it may have made')
    expect(JSON.parse(main.state.create ?? '')).toMatchObject({ id: second?.id, lostEarlier: true })

    const post = await runAction({ step: 'post', inputs: inputs(), state: main.state })
    expect(post.exitCode).toBe(0)
    expect(post.warnings).toEqual([])
    expect(first?.state).toBe('revoked')
    expect(second?.state).toBe('revoked')
    expectNoLeaks(post, platform().secrets())
  })

  it('without revokeOnExit, a warning says where the first token would be, and it is kept', async () => {
    answerLost()
    platform().listLagMs = 1_000
    const main = await runAction({ inputs: { ...inputs(), revokeOnExit: 'false' } })
    expect(main.exitCode).toBe(0)
    const [first, second] = [...platform().tokens.values()]
    expect(main.warnings).toEqual([
      expect.stringContaining(`An active token named 'pr-9' other than ${second?.id ?? '?'}`),
    ])
    expect(main.warnings[0]).toContain('nobody has its value')
    // No list after the create: the warning says it all.
    expect(platform().requestLines()).toEqual([AUTH, CREATE, LIST, CREATE])
    // With the same name, another job's token would look the same: kept, and named.
    expect(first?.state).toBe('active')
  })

  it('the post step keeps listing through 503s, while totalTimeout allows, then revokes', async () => {
    answerLost()
    platform().fail({ server: 'api', method: 'GET', path: '/api/tokens', status: 503, times: 2 })
    const main = await runAction({ inputs: { ...inputs(), retries: '1' } })
    expect(expectCleanFailure(main)).toMatch(/listing the tokens failed too/)
    // The platform answers 503 to the post step's first four lists (two attempts each, twice).
    platform().fail({ server: 'api', method: 'GET', path: '/api/tokens', status: 503, times: 4 })
    const post = await runAction({
      step: 'post',
      inputs: { ...inputs(), retries: '1' },
      state: main.state,
    })
    expect(post.exitCode).toBe(0)
    expect(post.warnings).toEqual([])
    expect(platform().faultsLeft()).toBe(0)
    const [token] = [...platform().tokens.values()]
    expect(token?.state).toBe('revoked')
    // Each look is one list with the step's retries, then 2 s to the next look.
    expect(
      post.log.match(/answered 503 .*\(attempt 2 of 2\).*Looking again in 2 s\./g),
    ).toHaveLength(2)
  })
})
