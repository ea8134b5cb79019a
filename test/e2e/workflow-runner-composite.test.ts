// This action inside a local composite action, run by the workflow runner as actions/runner runs it (docs/RUNNER.md): its post step at the end of the job, with the job's status then.
import { describe, expect, it } from '@jest/globals'
import { stringify } from 'yaml'
import { runWorkflowText } from '../support/workflow-runner.mjs'
import { settings } from './example-helpers.js'
import { useFakePlatform } from './helpers.js'

const platform = useFakePlatform()
const ACTION = `your-org/gateway-token-action@${'0'.repeat(40)}`

/** A composite action that creates a token with these inputs, then runs `after` (bash). */
const composite = (inputs: Record<string, string>, after: string[] = []) =>
  stringify({
    name: 'Create and deploy',
    description: 'A composite action around this one',
    inputs: {
      clientId: { description: 'id', required: true },
      clientSecret: { description: 'secret', required: true },
      baseUrl: { description: 'url', required: true },
      authUrl: { description: 'url', required: true },
    },
    outputs: { tokenId: { description: 'id', value: '${{ steps.token.outputs.tokenId }}' } },
    runs: {
      using: 'composite',
      steps: [
        {
          id: 'token',
          uses: ACTION,
          with: {
            operation: 'create',
            clientId: '${{ inputs.clientId }}',
            clientSecret: '${{ inputs.clientSecret }}',
            baseUrl: '${{ inputs.baseUrl }}',
            authUrl: '${{ inputs.authUrl }}',
            ...inputs,
          },
        },
        ...after.map((run, i) => ({ name: `inside ${i}`, shell: 'bash', run })),
      ],
    },
  })

/** A job that uses the composite action at ./deploy, then runs `after` (run steps). */
const workflow = (after: unknown[] = []) =>
  stringify({
    on: { workflow_dispatch: {} },
    permissions: {},
    jobs: {
      deploy: {
        'runs-on': 'ubuntu-latest',
        steps: [
          {
            id: 'deploy',
            name: 'Deploy',
            uses: './deploy',
            with: {
              clientId: '${{ secrets.PLATFORM_CLIENT_ID }}',
              clientSecret: '${{ secrets.PLATFORM_CLIENT_SECRET }}',
              baseUrl: '${{ vars.PLATFORM_API_URL }}',
              authUrl: '${{ vars.PLATFORM_AUTH_URL }}',
            },
          },
          ...after,
        ],
      },
    },
  })

async function run(action: string, after: unknown[] = []) {
  const files = { 'deploy/action.yml': action }
  const done = await runWorkflowText(workflow(after), 'w.yml', { ...settings(platform()), files })
  const states = [...platform().tokens.values()].map((token) => token.state)
  const post = done.steps.find((step) => step.stage === 'post')
  return { done, states, post }
}

describe('this action in a composite action: its post step', () => {
  it('runs at the end of the job, after every step of it, and keeps the token of a job that succeeded', async () => {
    const action = composite({ name: 'inside-1', revokeOnExit: 'failure' })
    const { done, states, post } = await run(action, [{ name: 'later', run: 'true' }])
    expect(done.jobs).toEqual({ deploy: 'success' })
    expect(done.steps.map((s) => s.name)).toEqual(['token', 'Deploy', 'later', 'Post token'])
    expect(post).toMatchObject({ parent: 'Deploy', outcome: 'success' })
    expect(post?.log).toContain('The job succeeded:')
    expect(states).toEqual(['active'])
  })

  it('sees the job fail when a step after the composite action fails: revokeOnExit: failure revokes', async () => {
    const action = composite({ name: 'inside-2', revokeOnExit: 'failure' })
    const { done, states, post } = await run(action, [{ name: 'later', run: 'exit 1' }])
    expect(done.jobs).toEqual({ deploy: 'failure' })
    expect(post?.log).toContain("The job failed: revoking the gateway token 'inside-2'")
    expect(states).toEqual(['revoked'])
  })

  it('sees the job fail when a step inside the composite action fails after the create', async () => {
    const action = composite({ name: 'inside-3', revokeOnExit: 'failure' }, ['exit 1'])
    const { done, states, post } = await run(action)
    expect(done.jobs).toEqual({ deploy: 'failure' })
    expect(post?.log).toContain('The job failed: revoking')
    expect(states).toEqual(['revoked'])
  })

  it('evaluates its with: again at the end of the job: job.status there is the job’s then', async () => {
    // What the default of jobStatus does, written out: at the main step it was success.
    const action = composite({
      name: 'inside-4',
      revokeOnExit: 'failure',
      jobStatus: '${{ job.status }}',
    })
    const { states, post } = await run(action, [{ run: 'exit 1' }])
    expect(post?.inputs.jobStatus).toBe('failure')
    expect(states).toEqual(['revoked'])
  })

  it('revokeOnExit: true revokes the token at the end of the job though the job succeeded', async () => {
    const { done, states } = await run(composite({ name: 'inside-5', revokeOnExit: 'true' }))
    expect(done.jobs).toEqual({ deploy: 'success' })
    expect(states).toEqual(['revoked'])
  })

  it('runs with the job’s other post steps, last registered first', async () => {
    const action = composite({ name: 'inside-6', revokeOnExit: 'true' })
    const later = {
      name: 'Create after',
      uses: ACTION,
      with: {
        operation: 'create',
        name: 'outside',
        revokeOnExit: 'true',
        clientId: '${{ secrets.PLATFORM_CLIENT_ID }}',
        clientSecret: '${{ secrets.PLATFORM_CLIENT_SECRET }}',
        baseUrl: '${{ vars.PLATFORM_API_URL }}',
        authUrl: '${{ vars.PLATFORM_AUTH_URL }}',
      },
    }
    const { done, states } = await run(action, [later])
    const posts = done.steps.filter((s) => s.stage === 'post').map((s) => s.name)
    expect(posts).toEqual(['Post Create after', 'Post token'])
    expect(states).toEqual(['revoked', 'revoked'])
  })
})
