// The README's other whole snippets (Usage, Docker, Nomad, several clusters, preview and
// ephemeral environments, nightly cleanup, compliance audit), run as copied.
import { describe, expect, it } from '@jest/globals'
import { runWorkflowText } from '../support/workflow-runner.mjs'
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
import { asWorkflow, jobsAsWorkflow, snippet } from './readme-helpers.js'

const platform = useFakePlatform()

describe("the README's snippets, each copied on its own", () => {
  it('Usage: a token is created, its value masked in the step output', async () => {
    const run = await runWorkflowText(
      asWorkflow(snippet('## Usage')),
      'usage.yml',
      settings(platform()),
    )
    expect(run.jobs).toEqual({ snippet: 'success' })
    const fresh = created(platform(), [])
    expect(fresh.name).toBe('mediator-production')
    expect(run.steps[0]?.outputs.tokenValue).toBe(fresh.tokenValue)
    expect(run.masked).toContain(fresh.tokenValue)
    expectNoLeaks(run, secretsOf(platform(), run))
  })

  it('Deploy with Docker: the token reaches docker run by the environment only', async () => {
    const run = await runWorkflowText(
      asWorkflow(snippet('### Deploy with Docker')),
      'docker.yml',
      settings(platform()),
    )
    expect(run.jobs).toEqual({ snippet: 'success' })
    const fresh = created(platform(), [])
    const [docker] = calls(run, 'docker', 'run')
    expect(docker?.env).toEqual({ YOURSERVICE_GATEWAY_TOKEN: fresh.tokenValue })
    expectNoLeaks(run, secretsOf(platform(), run))
  })

  it('Deploy with Nomad: the token goes into the variable from its file', async () => {
    const run = await runWorkflowText(
      asWorkflow(snippet('### Deploy with Nomad')),
      'nomad.yml',
      settings(platform()),
    )
    expect(run.jobs).toEqual({ snippet: 'success' })
    const fresh = created(platform(), [])
    const [put] = calls(run, 'nomad', 'var', 'put')
    expect(Object.values(put?.files ?? {})).toEqual([fresh.tokenValue])
    expect(calls(run, 'nomad', 'job', 'run')).toHaveLength(1)
    expectNoLeaks(run, secretsOf(platform(), run))
    expectNothingLeft(run, secretsOf(platform(), run))
  })

  it('Deploy to several clusters: a token per environment, each leg cleaning only its own name', async () => {
    const old = platform().seed({ name: 'mediator-staging', ageMs: 3 * DAY })
    const other = platform().seed({ name: 'mediator-staging-debug', ageMs: 3 * DAY })
    const legs = ['staging', 'production-eu', 'production-us']
    const run = await runWorkflowText(
      jobsAsWorkflow(snippet('### Deploy to several clusters')),
      'clusters.yml',
      settings(platform()),
    )
    expect(run.jobs).toEqual({
      deploy: 'success',
      ...Object.fromEntries(legs.map((leg) => [`deploy (${leg})`, 'success'])),
    })
    const fresh = [...platform().tokens.values()].filter((t) => ![old.id, other.id].includes(t.id))
    expect(fresh.map((t) => t.name).sort()).toEqual(legs.map((leg) => `mediator-${leg}`).sort())
    expect(states(platform())).toEqual({
      [old.id]: 'revoked',
      [other.id]: 'active',
      ...Object.fromEntries(fresh.map((t) => [t.id, 'active'])),
    })
    expectNoLeaks(run, secretsOf(platform(), run, [old, other]))
  })

  it('Preview environments: opened creates the token, synchronize reuses it, closed revokes it', async () => {
    const neighbour = platform().seed({ name: 'preview-pr-50', ageMs: DAY })
    const on = { pull_request: { types: ['opened', 'synchronize', 'closed'] } }
    const event = (action: string) => ({
      ...settings(platform()),
      event: 'pull_request',
      payload: { action, number: 5, pull_request: { number: 5 } },
    })
    const text = asWorkflow(snippet('### Preview environments'), on)
    const opened = await runWorkflowText(text, 'preview.yml', event('opened'))
    const fresh = created(platform(), [neighbour])
    expect(fresh.name).toBe('preview-pr-5')
    const pushed = await runWorkflowText(text, 'preview.yml', event('synchronize'))
    expect(pushed.steps[0]?.outputs).toMatchObject({ reused: 'true', tokenId: fresh.id })
    expect(states(platform())).toEqual({ [neighbour.id]: 'active', [fresh.id]: 'active' })
    const closed = await runWorkflowText(text, 'preview.yml', event('closed'))
    expect(states(platform())).toEqual({ [neighbour.id]: 'active', [fresh.id]: 'revoked' })
    for (const run of [opened, pushed, closed]) {
      expect(run.jobs).toEqual({ snippet: 'success' })
      expectNoLeaks(run, secretsOf(platform(), run, [neighbour]))
    }
  })

  it('Ephemeral environments: the post step revokes the token whatever the job did', async () => {
    const run = await runWorkflowText(
      asWorkflow(snippet('### Ephemeral environments'), { pull_request: {} }),
      'ephemeral.yml',
      {
        ...settings(platform()),
        event: 'pull_request',
        payload: { pull_request: { number: 123 } },
      },
    )
    expect(run.jobs).toEqual({ snippet: 'success' })
    const fresh = created(platform(), [])
    expect(fresh.name).toMatch(/^pr-123-run-\d+$/)
    expect(states(platform())).toEqual({ [fresh.id]: 'revoked' })
    expectNoLeaks(run, secretsOf(platform(), run))
  })

  it('Nightly cleanup: old pr-* tokens revoked, their newest too (keep: 0), nothing else', async () => {
    const old = platform().seed({ name: 'pr-7-run-1', ageMs: 3 * DAY })
    const young = platform().seed({ name: 'pr-8-run-1', ageMs: DAY / 4 })
    const other = platform().seed({ name: 'mediator-production', ageMs: 30 * DAY })
    const run = await runWorkflowText(
      jobsAsWorkflow(snippet('### Nightly cleanup')),
      'cleanup.yml',
      settings(platform()),
    )
    expect(run.jobs).toEqual({ cleanup: 'success' })
    expect(states(platform())).toEqual({
      [old.id]: 'revoked',
      [young.id]: 'active',
      [other.id]: 'active',
    })
    expectNoLeaks(run, secretsOf(platform(), run, [old, young, other]))
  })

  it('Compliance audit: fails naming the token over 90 days, revokes nothing', async () => {
    const old = platform().seed({ name: 'mediator-production', ageMs: 91 * DAY })
    const young = platform().seed({ name: 'mediator-staging', ageMs: 89 * DAY })
    const run = await runWorkflowText(
      asWorkflow(snippet('### Compliance audit')),
      'audit.yml',
      settings(platform()),
    )
    expect(run.jobs).toEqual({ snippet: 'failure' })
    expect(run.steps[0]?.log).toContain(old.id)
    expect(run.steps[0]?.log).not.toContain(young.id)
    expect(states(platform())).toEqual({ [old.id]: 'active', [young.id]: 'active' })
    expectNoLeaks(run, secretsOf(platform(), run, [old, young]))
  })
})
