// The README's snippets that are whole steps, run as a workflow author who copies one would run it.
import { describe, expect, it } from '@jest/globals'
import { runWorkflowText } from '../support/workflow-runner.mjs'
import { created, DAY, settings } from './example-helpers.js'
import { useFakePlatform } from './helpers.js'
import { asWorkflow, jobsAsWorkflow, snippet } from './readme-helpers.js'

const platform = useFakePlatform()

describe("the README's Helm snippet, copied on its own, is safe", () => {
  it('a deploy that succeeds leaves the new token active, from a file, in a Secret of its own', async () => {
    const old = platform().seed({ name: 'mediator-production', ageMs: 30 * DAY })
    const run = await runWorkflowText(
      asWorkflow(snippet('### Deploy with Helm')),
      'helm.yml',
      settings(platform()),
    )
    expect(run.jobs).toEqual({ snippet: 'success' })
    const fresh = created(platform(), [old])
    expect(fresh.state).toBe('active')
    expect(platform().tokens.get(old.id)?.state).toBe('active')
    const secret = run.tools.find((c) => c.tool === 'kubectl' && c.args[1] === 'secret')
    expect(Object.values(secret?.files ?? {})).toEqual([fresh.tokenValue])
    const upgrade = run.tools.find((c) => c.tool === 'helm' && c.args[0] === 'upgrade')
    expect(upgrade?.args).toEqual(expect.arrayContaining(['--atomic', '--wait']))
    for (const call of run.tools) expect(call.args.join(' ')).not.toContain(fresh.tokenValue)
  })

  it('a deploy that fails revokes the new token and leaves the old one in service', async () => {
    const old = platform().seed({ name: 'mediator-production', ageMs: 30 * DAY })
    const run = await runWorkflowText(asWorkflow(snippet('### Deploy with Helm')), 'helm.yml', {
      ...settings(platform()),
      fail: 'helm upgrade',
    })
    expect(run.jobs).toEqual({ snippet: 'failure' })
    const fresh = created(platform(), [old])
    expect(fresh.state).toBe('revoked')
    expect(platform().tokens.get(old.id)?.state).toBe('active')
  })
})

describe("the README's Rotate snippet, copied on its own", () => {
  it('revokes the older tokens of the name, never the new one: keepIds names it by its id', async () => {
    const old = platform().seed({ name: 'mediator-production', ageMs: 30 * DAY })
    // Newer than anything the run creates: keep: 1, the default, keeps it; keepIds the new one.
    const newer = platform().seed({ name: 'mediator-production', ageMs: -DAY })
    const run = await runWorkflowText(
      jobsAsWorkflow(snippet('### Rotate')),
      'rotate.yml',
      settings(platform()),
    )
    expect(run.jobs).toEqual({ deploy: 'success', 'revoke-old-tokens': 'success' })
    const fresh = created(platform(), [old, newer])
    expect(fresh.state).toBe('active')
    expect(platform().tokens.get(newer.id)?.state).toBe('active')
    expect(platform().tokens.get(old.id)?.state).toBe('revoked')
    const cleanup = run.steps.find((s) => s.job === 'revoke-old-tokens')
    expect(cleanup?.log).toContain(`(${fresh.id}), 0m old: its id is in keepIds.`)
  })
})

describe("the README's Windows snippet", () => {
  // It runs in CI, on windows-latest (.github/workflows/ci.yml; test/tooling/workflows.test.ts
  // checks that CI runs its lines): here, with no PowerShell, it must not pass as run by bash.
  it('is refused here, loudly, for its shell: pwsh', async () => {
    await expect(
      runWorkflowText(asWorkflow(snippet('### On Windows')), 'windows.yml', settings(platform())),
    ).rejects.toThrow(/cannot run shell: pwsh/)
  })
})
