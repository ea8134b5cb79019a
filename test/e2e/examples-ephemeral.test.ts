// examples/ephemeral-environment.yml: a token for one pull request run, revoked when the job ends.
import { describe, expect, it } from '@jest/globals'
import { runWorkflow } from '../support/workflow-runner.mjs'
import {
  calls,
  created,
  DAY,
  expectNoLeaks,
  expectNothingLeft,
  secretsOf,
  settings,
  states,
} from './example-helpers.js'
import { revokeLine, useFakePlatform } from './helpers.js'

const platform = useFakePlatform()
const FILE = 'examples/ephemeral-environment.yml'

/** A pull request event, from a branch of the repository or from a fork. */
function pullRequest(from = 'your-org/app') {
  return {
    event: 'pull_request',
    payload: { pull_request: { number: 123, head: { repo: { full_name: from } } } },
  }
}

describe('examples/ephemeral-environment.yml', () => {
  it.each([
    ['the tests pass', '', 'success'],
    ['the tests fail', 'npm run test:integration', 'failure'],
    ['the mediator does not start', 'docker run', 'failure'],
  ])(
    '%s: the token of this run reaches the mediator, and is revoked when the job ends',
    async (_, fail, result) => {
      const open = platform().seed({ name: 'pr-122-run-4100', ageMs: DAY / 2 })
      const run = await runWorkflow(FILE, { ...settings(platform()), ...pullRequest(), fail })

      expect(run.jobs).toEqual({ integration: result })
      const fresh = created(platform(), [open])
      expect(fresh.name).toBe('pr-123-run-4242')
      // Revoked by the post step, whatever the job's result; another run's token untouched.
      expect(states(platform())).toEqual({ [open.id]: 'active', [fresh.id]: 'revoked' })
      expect(
        platform()
          .requestLines()
          .filter((line) => line.includes('/revoke')),
      ).toEqual([revokeLine(fresh.id)])
      const [mediator] = calls(run, 'docker', 'run')
      expect(mediator?.args).toEqual([
        'run',
        '--detach',
        '--name',
        'mediator',
        '--env',
        'YOURSERVICE_GATEWAY_TOKEN',
        'platform/mediator:latest',
      ])
      // The platform forgets a revoked token's value: the create step's output gives it.
      const value = run.steps.find((s) => s.outputs.tokenId === fresh.id)?.outputs.tokenValue
      expect(value).toMatch(/^eyJ/)
      expect(mediator?.env).toEqual({ YOURSERVICE_GATEWAY_TOKEN: value })
      const tests = calls(run, 'npm').map((call) => call.args.join(' '))
      expect(tests).toEqual(fail === 'docker run' ? [] : ['ci', 'run test:integration'])
      const post = run.steps.find((s) => s.stage === 'post')
      expect(post?.log).toContain(
        `Revoked gateway token 'pr-123-run-4242' (${fresh.id}) at the end of the job (revokeOnExit).`,
      )
      const secrets = secretsOf(platform(), run, [open])
      expectNoLeaks(run, secrets)
      expectNothingLeft(run, secrets)
    },
  )

  it('a pull request from a fork (no secrets) skips the job: no token, no tool', async () => {
    const { vars } = settings(platform())
    const run = await runWorkflow(FILE, { vars, ...pullRequest('someone/app-fork') })

    expect(run.jobs).toEqual({ integration: 'skipped' })
    expect(run.steps).toEqual([])
    expect(run.tools).toEqual([])
    expect(platform().requests).toEqual([])
  })
})
