// The workflow runner with this action's steps (the committed bundle): a cancel and timeout-minutes reach the post step, so does GITHUB_ENV, and an example whose uses: names another action cannot pass.
import { describe, expect, it } from '@jest/globals'
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { parse, stringify } from 'yaml'
import { ROOT } from '../support/runner.mjs'
import { runWorkflowText } from '../support/workflow-runner.mjs'
import { settings } from './example-helpers.js'
import { useFakePlatform } from './helpers.js'

const platform = useFakePlatform()
const ACTION = `your-org/gateway-token-action@${'0'.repeat(40)}`

/** A job that creates a token with these inputs, then runs `after` (run steps). */
const createThen = (
  inputs: Record<string, string>,
  after: unknown[],
  more: Record<string, unknown> = {},
) =>
  stringify({
    on: { workflow_dispatch: {} },
    permissions: {},
    jobs: {
      deploy: {
        'runs-on': 'ubuntu-latest',
        steps: [
          {
            name: 'create',
            uses: ACTION,
            ...more,
            with: {
              operation: 'create',
              clientId: '${{ secrets.PLATFORM_CLIENT_ID }}',
              clientSecret: '${{ secrets.PLATFORM_CLIENT_SECRET }}',
              baseUrl: '${{ vars.PLATFORM_API_URL }}',
              authUrl: '${{ vars.PLATFORM_AUTH_URL }}',
              ...inputs,
            },
          },
          ...after,
        ],
      },
    },
  })

describe('the post step as the runner runs it, in a job (the committed bundle)', () => {
  it('after a cancel, sees job.status cancelled: revokeOnExit: failure revokes', async () => {
    const text = createThen({ name: 'deploy-1', revokeOnExit: 'failure' }, [
      { name: 'deploy', run: 'trap "exit 1" INT; sleep 5 > /dev/null 2>&1 & wait' },
    ])
    const run = await runWorkflowText(text, 'w.yml', {
      ...settings(platform()),
      cancel: { step: 'deploy', afterMs: 300 },
    })
    expect(run.jobs.deploy).toBe('cancelled')
    const post = run.steps.find((step) => step.stage === 'post')
    expect(post?.log).toContain('The job was cancelled: revoking')
    expect([...platform().tokens.values()].map((token) => token.state)).toEqual(['revoked'])
  })

  it('gets GITHUB_ENV of every earlier step: a RUNNER_DEBUG=1 written after it shows its debug lines', async () => {
    const text = createThen({ name: 'deploy-2', revokeOnExit: 'true' }, [
      { run: 'echo "RUNNER_DEBUG=1" >> "$GITHUB_ENV"' },
    ])
    const run = await runWorkflowText(text, 'w.yml', settings(platform()))
    const [main, , post] = run.steps
    expect(main?.log).not.toContain('##[debug]')
    expect(post?.stage).toBe('post')
    expect(post?.log).toMatch(/##\[debug\]POST .*\/revoke\?tokenId=.* -> 200 in \d+ ms/)
  })

  it('is bounded by the step’s timeout-minutes too', async () => {
    // The revoke at the end of the job never answers.
    platform().fail({ server: 'api', method: 'POST', path: /\/revoke$/, drop: 'hang' })
    const text = createThen({ name: 'deploy-3', revokeOnExit: 'true' }, [], {
      'timeout-minutes': 1,
    })
    const run = await runWorkflowText(text, 'w.yml', { ...settings(platform()), minuteMs: 500 })
    const post = run.steps.find((step) => step.stage === 'post')
    expect(post?.outcome).toBe('failure')
    expect(post?.log).toContain('Cancelled (SIGINT)')
  }, 20_000)
})

describe('an example whose uses: names another action cannot pass', () => {
  const examples = readdirSync(join(ROOT, 'examples')).filter((file) => file.endsWith('.yml'))

  it.each(
    examples.filter((file) =>
      readFileSync(join(ROOT, 'examples', file), 'utf8').includes(`${ACTION} `),
    ),
  )('%s', async (file) => {
    const text = readFileSync(join(ROOT, 'examples', file), 'utf8').replaceAll(
      ACTION,
      `someone-else/gateway-token-action@${'0'.repeat(40)}`,
    )
    // On the event it runs on (a pull request's for the ephemeral environment).
    const event = Object.keys((parse(text) as { on: Record<string, unknown> }).on)[0] ?? ''
    const payload = { pull_request: { number: 7, head: { repo: { full_name: 'your-org/app' } } } }
    const options = { ...settings(platform()), event, payload }
    await expect(runWorkflowText(text, file, options)).rejects.toThrow(
      'the workflow runner cannot run uses: someone-else/gateway-token-action@',
    )
  })
})
