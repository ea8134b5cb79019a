// The workflow runner's shells and local composite actions (`uses: ./path`), with `run:` steps: as the runner runs them, and refused loudly where it cannot.
import { describe, expect, it } from '@jest/globals'
import { stringify } from 'yaml'
import { runWorkflowText } from '../support/workflow-runner.mjs'

/** A workflow_dispatch workflow with one job of these steps (and more in the job). */
const workflow = (steps: unknown[], more: Record<string, unknown> = {}) =>
  stringify({
    on: { workflow_dispatch: {} },
    permissions: {},
    jobs: { a: { 'runs-on': 'ubuntu-latest', ...more, steps } },
  })
/** A composite action's action.yml: these inputs, outputs and steps. */
const composite = (steps: unknown[], more: Record<string, unknown> = {}) =>
  stringify({
    name: 'Local',
    description: 'A composite action',
    ...more,
    runs: { using: 'composite', steps },
  })
/** The run with a composite action at ./local. */
const withLocal = (action: string, steps: unknown[], more: Record<string, unknown> = {}) =>
  runWorkflowText(workflow(steps, more), 'w.yml', { files: { 'local/action.yml': action } })
/** What each run step printed, by name. */
const printed = (run: Awaited<ReturnType<typeof runWorkflowText>>) =>
  Object.fromEntries(run.steps.filter((s) => s.kind === 'run').map((s) => [s.name, s.log.trim()]))

describe('the workflow runner runs a run: step with the shell a Linux runner would', () => {
  it('none: bash -e, without pipefail; bash: with it; sh: sh -e', async () => {
    const pipe = { run: 'false | true; echo "after the pipe"' }
    const run = await runWorkflowText(
      workflow([
        { name: 'none', ...pipe },
        { name: 'sh', shell: 'sh', run: 'echo "$0"' },
        { name: 'bash', shell: 'bash', ...pipe },
        { name: 'after', if: 'always()', run: 'echo never skipped' },
      ]),
      'w.yml',
    )
    expect(run.jobs).toEqual({ a: 'failure' })
    expect(run.steps.map((s) => [s.name, s.outcome])).toEqual([
      ['none', 'success'],
      ['sh', 'success'],
      ['bash', 'failure'],
      ['after', 'success'],
    ])
    expect(printed(run).none).toBe('after the pipe')
    expect(printed(run).sh).toMatch(/step-.*\.sh$/)
  })

  it('takes the job’s defaults.run.shell for a step that names none', async () => {
    const steps = [{ run: 'false | true' }]
    const run = await runWorkflowText(
      workflow(steps, { defaults: { run: { shell: 'bash' } } }),
      'w.yml',
    )
    expect(run.jobs).toEqual({ a: 'failure' })
  })

  it.each(['pwsh', 'powershell', 'cmd', 'python', 'bash -x {0}'])(
    'refuses shell: %s, loudly, before the step runs: it has no such shell to honour',
    async (shell) => {
      const steps = [
        { name: 'first', run: 'echo ran' },
        { name: 'ps', shell, run: 'Test-Path x' },
      ]
      await expect(runWorkflowText(workflow(steps), 'w.yml')).rejects.toThrow(
        `step ps: the workflow runner cannot run shell: ${shell}`,
      )
      await expect(
        runWorkflowText(workflow([{ run: 'x' }], { defaults: { run: { shell } } }), 'w.yml'),
      ).rejects.toThrow(`the workflow runner cannot run shell: ${shell}`)
    },
  )

  it('refuses a workflow’s own defaults:, which it does not model: a job’s it takes', async () => {
    const text = stringify({
      on: { workflow_dispatch: {} },
      permissions: {},
      defaults: { run: { shell: 'bash' } },
      jobs: { a: { 'runs-on': 'ubuntu-latest', steps: [{ run: 'true' }] } },
    })
    await expect(runWorkflowText(text, 'w.yml')).rejects.toThrow(
      "w.yml: the workflow runner does not model a workflow's defaults:",
    )
  })

  it('refuses a working-directory it does not model', async () => {
    const steps = [{ name: 'in', 'working-directory': 'sub', run: 'pwd' }]
    await expect(runWorkflowText(workflow(steps), 'w.yml')).rejects.toThrow(
      'step in: the workflow runner does not model working-directory',
    )
  })
})

describe('the workflow runner runs a local composite action as the runner does', () => {
  it('gives its steps its inputs (with: over defaults), and the job its outputs', async () => {
    const action = composite(
      [
        {
          id: 'say',
          shell: 'bash',
          env: { WHO: '${{ inputs.who }}' },
          run: 'echo "out=$WHO ${{ inputs.how }}" >> "$GITHUB_OUTPUT"',
        },
        {
          shell: 'bash',
          run: 'echo "$GITHUB_ACTION_PATH" | grep -q /local$ && echo "LATER=set" >> "$GITHUB_ENV"',
        },
      ],
      {
        inputs: {
          who: { description: 'who', required: true },
          how: { description: 'how', default: '${{ github.event_name }}' },
        },
        outputs: { said: { description: 'what', value: '${{ steps.say.outputs.out }}' } },
      },
    )
    const run = await withLocal(action, [
      { id: 'local', uses: './local', with: { who: 'world' } },
      {
        name: 'read',
        env: { SAID: '${{ steps.local.outputs.said }}' },
        run: 'echo "$SAID; $LATER"',
      },
    ])
    expect(run.jobs).toEqual({ a: 'success' })
    expect(printed(run).read).toBe('world workflow_dispatch; set')
    const step = run.steps.find((s) => s.kind === 'composite')
    expect(step).toMatchObject({ name: 'local', outputs: { said: 'world workflow_dispatch' } })
    expect(run.steps.filter((s) => s.parent === 'local').map((s) => s.name)).toEqual(['say', '__1'])
  })

  it('its steps: a failure skips the rest unless failure(); job.status stays the job’s until it ends', async () => {
    const action = composite([
      { shell: 'bash', run: 'exit 3' },
      { name: 'skipped', shell: 'bash', run: 'echo no' },
      { name: 'on failure', if: 'failure()', shell: 'bash', run: 'echo "job ${{ job.status }}"' },
    ])
    const run = await withLocal(action, [
      { id: 'local', uses: './local' },
      { name: 'after', if: 'always()', run: 'echo "job ${{ job.status }}"' },
    ])
    expect(run.jobs).toEqual({ a: 'failure' })
    expect(run.steps.map((s) => [s.name, s.outcome])).toEqual([
      ['__0', 'failure'],
      ['skipped', 'skipped'],
      ['on failure', 'success'],
      ['local', 'failure'],
      ['after', 'success'],
    ])
    expect(printed(run)).toMatchObject({ 'on failure': 'job success', after: 'job failure' })
  })

  it('refuses what an action may not read, a run: step without shell:, an action it cannot run', async () => {
    const secret = composite([{ shell: 'bash', run: 'echo "${{ secrets.X }}"' }])
    await expect(withLocal(secret, [{ uses: './local' }])).rejects.toThrow(/secrets/)
    const noShell = stringify({
      name: 'L',
      description: 'd',
      runs: { using: 'composite', steps: [{ run: 'true' }] },
    })
    await expect(withLocal(noShell, [{ uses: './local' }])).rejects.toThrow(
      './local is not a valid action',
    )
    const other = composite([{ uses: `someone/else@${'a'.repeat(40)}` }])
    await expect(withLocal(other, [{ uses: './local' }])).rejects.toThrow(
      `the workflow runner cannot run uses: someone/else@${'a'.repeat(40)}`,
    )
    const node = stringify({ name: 'L', description: 'd', runs: { using: 'node24', main: 'x.js' } })
    await expect(withLocal(node, [{ uses: './local' }])).rejects.toThrow(
      'the workflow runner cannot run uses: ./local',
    )
  })
})
