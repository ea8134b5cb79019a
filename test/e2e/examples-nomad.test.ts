// examples/deploy-nomad.yml and the job file it runs, examples/nomad/mediator.nomad.hcl.
import { describe, expect, it } from '@jest/globals'
import { timestamp } from '../support/fake-platform.mjs'
import { runWorkflow, type WorkflowRun } from '../support/workflow-runner.mjs'
import {
  calls,
  created,
  DAY,
  expectNoLeaks,
  expectNothingLeft,
  NOMAD_TOKEN,
  secretsOf,
  settings,
  states,
} from './example-helpers.js'
import { revokeLine, useFakePlatform } from './helpers.js'

const platform = useFakePlatform()
const JOB_FILE = 'examples/nomad/mediator.nomad.hcl'
const HOUR = 3_600_000
const revokes = () =>
  platform()
    .requestLines()
    .filter((line) => line.includes('/revoke'))
const tokenFileOf = (run: WorkflowRun) =>
  run.steps.find((s) => s.name === 'Create a gateway token')?.outputs.tokenFile ?? ''

describe('examples/deploy-nomad.yml', () => {
  it('the token goes from its file into the variable only the job reads, then the older one is revoked', async () => {
    const old = platform().seed({ name: 'mediator-nomad', ageMs: 30 * DAY })
    const other = platform().seed({ name: 'mediator-docker', ageMs: 30 * DAY })
    const { vars, ...rest } = settings(platform())
    const run = await runWorkflow('examples/deploy-nomad.yml', { ...rest, vars, event: 'push' })

    expect(run.jobs).toEqual({ deploy: 'success' })
    const fresh = created(platform(), [old, other])
    expect(states(platform())).toEqual({
      [old.id]: 'revoked',
      [other.id]: 'active',
      [fresh.id]: 'active',
    })
    expect(revokes()).toEqual([revokeLine(old.id)])
    // The CLI from HashiCorp's signed apt repository, for this release of the runner's OS.
    const [source] = calls(run, 'sudo', 'tee', '/etc/apt/sources.list.d/hashicorp.list')
    expect(source?.stdin).toBe(
      'deb [signed-by=/usr/share/keyrings/hashicorp-archive-keyring.gpg] https://apt.releases.hashicorp.com noble main\n',
    )
    expect(calls(run, 'sudo', 'apt-get', 'install')[0]?.args).toEqual([
      'apt-get',
      'install',
      '--yes',
      'nomad',
    ])
    // The value from the token file into the variable; the cluster and ACL token from env.
    const tokenFile = tokenFileOf(run)
    const [put] = calls(run, 'nomad', 'var', 'put')
    expect(put?.args).toEqual([
      'var',
      'put',
      '-force',
      '-out=none',
      'nomad/jobs/mediator',
      `gateway_token=@${tokenFile}`,
    ])
    expect(put?.files).toEqual({ [tokenFile]: fresh.tokenValue })
    expect(put?.env).toEqual({ NOMAD_ADDR: vars.NOMAD_ADDR, NOMAD_TOKEN })
    // The job file holds no token; it reads the variable that the workflow wrote, under
    // the job's own path (nomad/jobs/<job>: only its tasks may read it), by the same key.
    const [jobRun] = calls(run, 'nomad', 'job', 'run')
    expect(jobRun?.args).toEqual(['job', 'run', JOB_FILE])
    expect(jobRun?.env).toEqual({ NOMAD_ADDR: vars.NOMAD_ADDR, NOMAD_TOKEN })
    const spec = jobRun?.files[JOB_FILE] ?? ''
    const job = /^job "([\w-]+)"/m.exec(spec)?.[1]
    expect(`nomad/jobs/${job ?? ''}`).toBe(put?.args[4])
    expect(spec).toContain(
      `{{ with nomadVar "nomad/jobs/${job ?? ''}" }}YOURSERVICE_GATEWAY_TOKEN={{ .gateway_token }}{{ end }}`,
    )
    expect(spec).toMatch(/destination\s+= "secrets\/gateway\.env"\n\s+env\s+= true/)
    // The cleanup ran last, after the job was submitted.
    const names = run.steps.map((s) => s.name)
    expect(names.indexOf('Revoke the tokens of earlier deploys')).toBe(
      names.indexOf('Run the Nomad job') + 1,
    )
    // No revokeOnExit: the post step only deletes the token file.
    const post = run.steps.find((s) => s.name === 'Post Create a gateway token')
    expect(post?.log).toBe(`Deleted the token file ${tokenFile}.\n`)
    const secrets = [...secretsOf(platform(), run, [old, other]), NOMAD_TOKEN]
    expectNoLeaks(run, secrets)
    expectNothingLeft(run, secrets)
  })

  it('a failed deploy leaves both tokens active; the next one that succeeds revokes the older ones', async () => {
    const old = platform().seed({ name: 'mediator-nomad', ageMs: 30 * DAY })
    const failed = await runWorkflow('examples/deploy-nomad.yml', {
      ...settings(platform()),
      fail: 'nomad job run',
    })

    expect(failed.jobs).toEqual({ deploy: 'failure' })
    const first = created(platform(), [old])
    // The variable may hold the new token already: revoking it would cut the mediator off.
    expect(states(platform())).toEqual({ [old.id]: 'active', [first.id]: 'active' })
    expect(revokes()).toEqual([])
    expect(
      failed.steps.find((s) => s.name === 'Revoke the tokens of earlier deploys')?.outcome,
    ).toBe('skipped')
    const post = failed.steps.find((s) => s.name === 'Post Create a gateway token')
    expect(post?.log).toBe(`Deleted the token file ${tokenFileOf(failed)}.\n`)
    const secrets = [...secretsOf(platform(), failed, [old]), NOMAD_TOKEN]
    expectNoLeaks(failed, secrets)
    expectNothingLeft(failed, secrets)

    // The next deploy, an hour later (a token of the same second would tie, and be kept).
    const stored = platform().tokens.get(first.id)
    if (stored !== undefined) stored.createdAt = timestamp(Date.now() - HOUR)
    const next = await runWorkflow('examples/deploy-nomad.yml', settings(platform()))
    expect(next.jobs).toEqual({ deploy: 'success' })
    const last = created(platform(), [old, first])
    expect(states(platform())).toEqual({
      [old.id]: 'revoked',
      [first.id]: 'revoked',
      [last.id]: 'active',
    })
    expect(revokes().sort()).toEqual([revokeLine(old.id), revokeLine(first.id)].sort())
    const all = [...secretsOf(platform(), next, [old, first]), NOMAD_TOKEN]
    expectNoLeaks(next, all)
    expectNothingLeft(next, all)
  })
})
