// examples/deploy-across-jobs.yml (a token job and a deploy job) and examples/deploy-composite.yml
// (create and deploy in a composite action), run as GitHub would run them, with fake deploy tools.
import { describe, expect, it } from '@jest/globals'
import { stringify } from 'yaml'
import { runWorkflow, runWorkflowText } from '../support/workflow-runner.mjs'
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
import { useFakePlatform } from './helpers.js'

const platform = useFakePlatform()
const ACTION = `your-org/gateway-token-action@${'0'.repeat(40)}`

/** The value the Secret was made of: the token file kubectl read. */
const deployed = (run: Awaited<ReturnType<typeof runWorkflow>>) =>
  calls(run, 'kubectl', 'create', 'secret').flatMap((call) => Object.values(call.files))

describe('a token job and a deploy job', () => {
  it('a job output cannot carry the value: the runner drops it, and the deploy job gets nothing', async () => {
    const connection = {
      clientId: '${{ secrets.PLATFORM_CLIENT_ID }}',
      clientSecret: '${{ secrets.PLATFORM_CLIENT_SECRET }}',
      baseUrl: '${{ vars.PLATFORM_API_URL }}',
      authUrl: '${{ vars.PLATFORM_AUTH_URL }}',
    }
    const text = stringify({
      on: { workflow_dispatch: {} },
      permissions: {},
      jobs: {
        token: {
          'runs-on': 'ubuntu-latest',
          outputs: { value: '${{ steps.t.outputs.tokenValue }}' },
          steps: [
            { id: 't', uses: ACTION, with: { operation: 'create', name: 'x', ...connection } },
          ],
        },
        deploy: {
          needs: 'token',
          'runs-on': 'ubuntu-latest',
          steps: [{ env: { VALUE: '${{ needs.token.outputs.value }}' }, run: 'echo "[$VALUE]"' }],
        },
      },
    })
    const run = await runWorkflowText(text, 'naive.yml', settings(platform()))
    expect(run.jobs).toEqual({ token: 'success', deploy: 'success' })
    expect(run.warnings).toEqual(["Skip output 'value' since it may contain secret."])
    expect(run.steps.find((s) => s.job === 'deploy')?.log.trim()).toBe('[]')
  })

  it('deploys the token job’s token, its real value, and leaves no other token active', async () => {
    const old = platform().seed({ name: 'mediator-production', ageMs: 30 * DAY })
    const run = await runWorkflow('examples/deploy-across-jobs.yml', settings(platform()))

    expect(run.jobs).toEqual({ token: 'success', deploy: 'success', 'revoke-if-failed': 'skipped' })
    const fresh = created(platform(), [old])
    expect(deployed(run)).toEqual([fresh.tokenValue])
    const reused = run.steps.find(
      (s) => s.job === 'deploy' && s.name === 'Get the token by its name',
    )
    expect(reused?.outputs).toMatchObject({ tokenId: fresh.id, reused: 'true' })
    // The one created is the one in service; the old one is the rotation's to revoke.
    expect(states(platform())).toEqual({ [old.id]: 'active', [fresh.id]: 'active' })
    expect(run.warnings).toEqual([])
    const secrets = secretsOf(platform(), run, [old])
    expectNoLeaks(run, secrets)
    expectNothingLeft(run, secrets)
  })

  it('a failed deploy: the last job revokes the token, the old one stays in service', async () => {
    const old = platform().seed({ name: 'mediator-production', ageMs: 30 * DAY })
    const run = await runWorkflow('examples/deploy-across-jobs.yml', {
      ...settings(platform()),
      fail: 'helm upgrade',
    })

    expect(run.jobs).toEqual({ token: 'success', deploy: 'failure', 'revoke-if-failed': 'success' })
    const fresh = created(platform(), [old])
    expect(states(platform())).toEqual({ [old.id]: 'active', [fresh.id]: 'revoked' })
    const secrets = secretsOf(platform(), run, [old])
    expectNoLeaks(run, secrets)
    expectNothingLeft(run, secrets)
  })

  it('a token of the name made since by another run: not deployed; the token job’s is revoked', async () => {
    // Dated after anything this run creates: the newest of the name, which reuse returns.
    const newer = platform().seed({ name: 'mediator-production', ageMs: -DAY })
    const run = await runWorkflow('examples/deploy-across-jobs.yml', settings(platform()))

    expect(run.jobs).toEqual({ token: 'success', deploy: 'failure', 'revoke-if-failed': 'success' })
    const check = run.steps.find((s) => s.name === "Check that it is the token job's token")
    expect(check?.outcome).toBe('failure')
    expect(run.tools).toEqual([])
    const fresh = created(platform(), [newer])
    expect(states(platform())).toEqual({ [newer.id]: 'active', [fresh.id]: 'revoked' })
  })
})

describe('examples/deploy-composite.yml: create and deploy in a composite action', () => {
  it('deploys the new token from its file; its post step, at the end of the job, keeps it; the older ones go', async () => {
    const old = platform().seed({ name: 'mediator-production', ageMs: 30 * DAY })
    const run = await runWorkflow('examples/deploy-composite.yml', settings(platform()))

    expect(run.jobs).toEqual({ deploy: 'success', 'revoke-old-tokens': 'success' })
    const fresh = created(platform(), [old])
    expect(deployed(run)).toEqual([fresh.tokenValue])
    expect(states(platform())).toEqual({ [old.id]: 'revoked', [fresh.id]: 'active' })
    const deploySteps = run.steps.filter((s) => s.job === 'deploy').map((s) => s.name)
    expect(deploySteps.at(-1)).toBe('Post Create a gateway token')
    const post = run.steps.find((s) => s.stage === 'post')
    expect(post).toMatchObject({ parent: 'Create a token and deploy the mediator' })
    expect(post?.log).toContain('The job succeeded:')
    const cleanup = run.steps.find((s) => s.job === 'revoke-old-tokens')
    expect(cleanup?.log).toContain(`(${fresh.id}), 0m old: its id is in keepIds.`)
    const secrets = secretsOf(platform(), run, [old])
    expectNoLeaks(run, secrets)
    expectNothingLeft(run, secrets)
  })

  it('a failed deploy in it: its post step sees the job fail and revokes the new token', async () => {
    const old = platform().seed({ name: 'mediator-production', ageMs: 30 * DAY })
    const run = await runWorkflow('examples/deploy-composite.yml', {
      ...settings(platform()),
      fail: 'helm upgrade',
    })

    expect(run.jobs).toEqual({ deploy: 'failure', 'revoke-old-tokens': 'skipped' })
    const fresh = created(platform(), [old])
    expect(states(platform())).toEqual({ [old.id]: 'active', [fresh.id]: 'revoked' })
    const post = run.steps.find((s) => s.stage === 'post')
    expect(post?.log).toContain("The job failed: revoking the gateway token 'mediator-production'")
    const secrets = secretsOf(platform(), run, [old])
    expectNoLeaks(run, secrets)
    expectNothingLeft(run, secrets)
  })
})
