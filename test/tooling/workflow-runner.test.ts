// The workflow runner (test/support/workflow-runner.mjs) on workflows of `run:` steps: what GitHub does, and failing loudly where it cannot.
import { describe, expect, it } from '@jest/globals'
import { stringify } from 'yaml'
import { runWorkflowText } from '../support/workflow-runner.mjs'

const SHA = 'a'.repeat(40)

/** A workflow_dispatch workflow with these jobs (and more at its top level). */
const workflow = (jobs: Record<string, unknown>, top: Record<string, unknown> = {}) =>
  stringify({ on: { workflow_dispatch: {} }, permissions: {}, ...top, jobs })
const job = (steps: unknown[], more: Record<string, unknown> = {}) => ({
  'runs-on': 'ubuntu-latest',
  ...more,
  steps,
})
const run = (script: string, more: Record<string, unknown> = {}) => ({ run: script, ...more })
/** What each run step printed, in order, its job before it. */
const printed = (result: Awaited<ReturnType<typeof runWorkflowText>>) =>
  result.steps.filter((s) => s.kind === 'run').map((s) => `${s.job}: ${s.log.trim()}`)

describe('the workflow runner fails loudly on what it cannot run', () => {
  it('any uses: but this action and actions/checkout', async () => {
    const text = workflow({ a: job([{ uses: `someone/else@${SHA}` }]) })
    await expect(runWorkflowText(text, 'w.yml')).rejects.toThrow(
      `the workflow runner cannot run uses: someone/else@${SHA}`,
    )
  })

  it('a property of a context it holds only in part (github.server_url, runner.arch)', async () => {
    for (const expression of ['github.server_url', 'runner.arch']) {
      const text = workflow({ a: job([run(`echo "\${{ ${expression} }}"`)]) })
      await expect(runWorkflowText(text, 'w.yml')).rejects.toThrow(
        `the workflow runner does not model ${expression}`,
      )
    }
  })

  it('a function it does not know', async () => {
    const text = workflow({ a: job([run(`echo "\${{ hashFiles('x') }}"`)]) })
    await expect(runWorkflowText(text, 'w.yml')).rejects.toThrow(/hashFiles/)
  })

  it('an environment the run was not given', async () => {
    const text = workflow({ a: job([run('true')], { environment: 'staging' }) })
    await expect(runWorkflowText(text, 'w.yml')).rejects.toThrow('no environment named staging')
  })
})

describe('the workflow runner does what GitHub does', () => {
  it('gives the workflow’s env: to every job, under the job’s and the step’s own', async () => {
    const text = workflow(
      { a: job([run('echo "$A $B $C"', { env: { C: 'step' } })], { env: { B: 'job' } }) },
      { env: { A: 'workflow', B: 'workflow', C: 'workflow' } },
    )
    expect(printed(await runWorkflowText(text, 'w.yml'))).toEqual(['a: workflow job step'])
  })

  it('expands a matrix: lists crossed, exclude, include, once per combination', async () => {
    const strategy = {
      matrix: {
        env: ['staging', 'production'],
        region: ['eu', 'us'],
        exclude: [{ env: 'staging', region: 'us' }],
        include: [{ env: 'production', canary: 'yes' }, { env: 'dev' }],
      },
    }
    const text = workflow({
      a: job(
        [
          run(
            'echo "${{ matrix.env }}/${{ matrix.region }}/${{ matrix.canary }} ${{ strategy.job-index }}/${{ strategy.job-total }}"',
          ),
        ],
        { strategy },
      ),
    })
    const result = await runWorkflowText(text, 'w.yml')
    expect(printed(result)).toEqual([
      'a (staging, eu): staging/eu/ 0/4',
      'a (production, eu, yes): production/eu/yes 1/4',
      'a (production, us, yes): production/us/yes 2/4',
      'a (dev): dev// 3/4',
    ])
    expect(result.jobs.a).toBe('success')
  })

  it('takes a matrix from fromJSON of an earlier job’s output', async () => {
    const text = workflow({
      list: job([run('echo \'names=["a","b"]\' >> "$GITHUB_OUTPUT"', { id: 'l' })], {
        outputs: { names: '${{ steps.l.outputs.names }}' },
      }),
      each: job([run('echo "${{ matrix.name }}"')], {
        needs: 'list',
        strategy: { matrix: { name: '${{ fromJSON(needs.list.outputs.names) }}' } },
      }),
    })
    expect(printed(await runWorkflowText(text, 'w.yml')).slice(1)).toEqual([
      'each (a): a',
      'each (b): b',
    ])
  })

  it('fails a job whose matrix has no values, as GitHub does', async () => {
    const text = workflow({
      a: job([run('true')], { strategy: { matrix: { x: "${{ fromJSON('[]') }}" } } }),
    })
    await expect(runWorkflowText(text, 'w.yml')).rejects.toThrow(
      "Matrix vector 'x' does not contain any values",
    )
  })

  it('fail-fast: a failed combination cancels those not run yet; off, they run', async () => {
    const steps = [run('test "${{ matrix.n }}" != 1')]
    const fast = await runWorkflowText(
      workflow({ a: job(steps, { strategy: { matrix: { n: [1, 2] } } }) }),
      'w.yml',
    )
    expect(fast.jobs).toEqual({ 'a (1)': 'failure', 'a (2)': 'cancelled', a: 'failure' })
    const slow = await runWorkflowText(
      workflow({ a: job(steps, { strategy: { 'fail-fast': false, matrix: { n: [1, 2] } } }) }),
      'w.yml',
    )
    expect(slow.jobs).toEqual({ 'a (1)': 'failure', 'a (2)': 'success', a: 'failure' })
  })

  it('scopes secrets and vars by environment:, over the repository’s', async () => {
    const text = workflow({
      prod: job([run('echo "${{ secrets.S }} ${{ vars.V }}"')], { environment: 'production' }),
      none: job([run('echo "${{ secrets.S }} ${{ vars.V }}"')]),
    })
    const result = await runWorkflowText(text, 'w.yml', {
      secrets: { S: 'repo-secret' },
      vars: { V: 'repo-var' },
      environments: { production: { secrets: { S: 'prod-secret' }, vars: { V: 'prod-var' } } },
    })
    expect(printed(result)).toEqual(['prod: *** prod-var', 'none: *** repo-var'])
    expect(result.steps.map((s) => s.raw.trim())).toEqual([
      'prod-secret prod-var',
      'repo-secret repo-var',
    ])
  })

  it('drops a job output that holds a secret, with a warning, as the runner does', async () => {
    const text = workflow({
      a: job(
        [
          run(
            'echo "::add-mask::t0ken-v4lue"; echo "v=t0ken-v4lue" >> "$GITHUB_OUTPUT"; echo "n=7" >> "$GITHUB_OUTPUT"',
            { id: 's' },
          ),
        ],
        {
          outputs: { value: '${{ steps.s.outputs.v }}', count: '${{ steps.s.outputs.n }}' },
        },
      ),
      b: job([run('echo "[${{ needs.a.outputs.value }}] ${{ needs.a.outputs.count }}"')], {
        needs: 'a',
      }),
    })
    const result = await runWorkflowText(text, 'w.yml')
    expect(printed(result).at(-1)).toBe('b: [] 7')
    expect(result.warnings).toEqual(["Skip output 'value' since it may contain secret."])
  })

  it('gives the job a GITHUB_TOKEN, github.token and secrets.GITHUB_TOKEN, masked', async () => {
    const text = workflow({
      a: job([run('echo "${{ github.token }} ${{ secrets.GITHUB_TOKEN }}"', { env: {} })]),
    })
    const result = await runWorkflowText(text, 'w.yml')
    expect(printed(result)).toEqual(['a: *** ***'])
  })

  it('fails the tool calls that hold the words of an entry of fail, in order', async () => {
    const calls = [
      'helm upgrade --install m --values=deploy/production-eu.yaml',
      'helm upgrade --install m --values=deploy/staging.yaml',
      'helm repo add production-eu',
    ]
    const text = workflow({
      a: job(calls.map((call) => run(call, { 'continue-on-error': true }))),
    })
    const result = await runWorkflowText(text, 'w.yml', { fail: 'helm upgrade production-eu' })
    expect(result.steps.map((s) => s.outcome)).toEqual(['failure', 'success', 'success'])
  })

  it('gh pr list --state closed names the closed pull requests it was given', async () => {
    const text = workflow({
      a: job([run("gh pr list --state closed --json number --jq '.[].number'")]),
    })
    const result = await runWorkflowText(text, 'w.yml', { closedPullRequests: [7, 9] })
    expect(printed(result)).toEqual(['a: 7\n9'])
  })

  it('a cancel: the step is stopped, the job cancelled, success() steps skipped, cancelled() ones run', async () => {
    const text = workflow({
      a: job([
        run('trap "echo stopped; exit 1" INT; sleep 5 > /dev/null 2>&1 & wait', { name: 'long' }),
        run('echo later', { name: 'later' }),
        run('echo "cleanup ${{ job.status }}"', { name: 'cleanup', if: 'cancelled()' }),
      ]),
    })
    const result = await runWorkflowText(text, 'w.yml', { cancel: { step: 'long', afterMs: 300 } })
    expect(result.steps.map((s) => [s.name, s.outcome])).toEqual([
      ['long', 'cancelled'],
      ['later', 'skipped'],
      ['cleanup', 'success'],
    ])
    expect(printed(result).at(-1)).toBe('a: cleanup cancelled')
    expect(result.jobs.a).toBe('cancelled')
  })

  it('timeout-minutes stops a step with the runner’s signals, and fails it', async () => {
    const text = workflow({
      a: job([
        run('trap "exit 1" INT; sleep 5 > /dev/null 2>&1 & wait', {
          'timeout-minutes': 1,
          name: 'slow',
        }),
      ]),
    })
    const result = await runWorkflowText(text, 'w.yml', { minuteMs: 300 })
    expect(result.steps[0]?.outcome).toBe('failure')
    expect(result.jobs.a).toBe('failure')
  })
})
