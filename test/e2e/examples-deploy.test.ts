// examples/deploy-helm.yml and examples/deploy-docker.yml, run as GitHub would run them.
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
const SECRET = 'mediator-gateway-token-4242'
const revokes = () =>
  platform()
    .requestLines()
    .filter((line) => line.includes('/revoke'))

describe('examples/deploy-helm.yml', () => {
  it('a push deploys the new token from its file through a Secret of its own, then revokes the older one', async () => {
    const old = platform().seed({ name: 'mediator-production', ageMs: 30 * DAY })
    const other = platform().seed({ name: 'mediator-staging', ageMs: 60 * DAY })
    const run = await runWorkflow('examples/deploy-helm.yml', {
      ...settings(platform()),
      event: 'push',
    })

    expect(run.jobs).toEqual({ deploy: 'success', 'revoke-old-tokens': 'success' })
    const fresh = created(platform(), [old, other])
    expect(states(platform())).toEqual({
      [old.id]: 'revoked',
      [other.id]: 'active',
      [fresh.id]: 'active',
    })
    expect(revokes()).toEqual([revokeLine(old.id)])
    // The namespace first, then the Secret, its value read from the token file.
    const [namespace, secretApply] = calls(run, 'kubectl', 'apply')
    expect(namespace?.stdin).toContain('kind: Namespace')
    const [secret] = calls(run, 'kubectl', 'create', 'secret')
    const tokenFile = run.steps.find((s) => s.name === 'Create a gateway token')?.outputs.tokenFile
    expect(secret?.args).toEqual([
      'create',
      'secret',
      'generic',
      SECRET,
      '--namespace=mediator',
      `--from-file=token=${tokenFile ?? ''}`,
      '--dry-run=client',
      '--output=yaml',
    ])
    expect(secret?.files).toEqual({ [tokenFile ?? '']: fresh.tokenValue })
    const base64 = Buffer.from(fresh.tokenValue ?? '').toString('base64')
    expect(secretApply?.stdin).toContain(`  token: ${base64}`)
    // Labelled as the second job selects them, and named by this run, as Helm is told.
    const [label] = calls(run, 'kubectl', 'label', 'secret', SECRET)
    expect(label?.args).toContain('app.kubernetes.io/part-of=mediator-gateway-token')
    const [upgrade] = calls(run, 'helm', 'upgrade')
    expect(upgrade?.args).toEqual(
      expect.arrayContaining(['--atomic', '--wait', '--set', `mediator.secretName=${SECRET}`]),
    )
    // The second job deletes the older Secrets, never this run's.
    expect(calls(run, 'kubectl', 'delete').map((call) => call.args)).toEqual([
      [
        'delete',
        'secret',
        '--namespace=mediator',
        '--ignore-not-found',
        '--selector=app.kubernetes.io/part-of=mediator-gateway-token',
        `--field-selector=metadata.name!=${SECRET}`,
      ],
    ])
    const post = run.steps.find((s) => s.name === 'Post Create a gateway token')
    expect(post?.log).toContain('stays active (revokeOnExit: failure).')
    expect(post?.log).toContain(`Deleted the token file ${tokenFile ?? ''}.`)
    const secrets = secretsOf(platform(), run, [old, other])
    expectNoLeaks(run, secrets)
    expectNothingLeft(run, secrets)
  })

  it('a deploy Helm rolls back: the new token is revoked, the old one and its Secret stay', async () => {
    const old = platform().seed({ name: 'mediator-production', ageMs: 30 * DAY })
    const run = await runWorkflow('examples/deploy-helm.yml', {
      ...settings(platform()),
      fail: 'helm upgrade',
    })

    expect(run.jobs).toEqual({ deploy: 'failure', 'revoke-old-tokens': 'skipped' })
    const fresh = created(platform(), [old])
    expect(states(platform())).toEqual({ [old.id]: 'active', [fresh.id]: 'revoked' })
    expect(revokes()).toEqual([revokeLine(fresh.id)])
    expect(calls(run, 'kubectl', 'delete')).toEqual([])
    const post = run.steps.find((s) => s.name === 'Post Create a gateway token')
    expect(post?.log).toContain("The job failed: revoking the gateway token 'mediator-production'")
    expect(post?.log).toContain('Deleted the token file')
    const secrets = secretsOf(platform(), run, [old])
    expectNoLeaks(run, secrets)
    expectNothingLeft(run, secrets)
  })
})

describe('examples/deploy-docker.yml', () => {
  it('the new token reaches the container from the environment, and the older one is revoked', async () => {
    const old = platform().seed({ name: 'mediator-docker', ageMs: 30 * DAY })
    const older = platform().seed({ name: 'mediator-docker', ageMs: 60 * DAY })
    const other = platform().seed({ name: 'mediator-nomad', ageMs: 60 * DAY })
    const run = await runWorkflow('examples/deploy-docker.yml', settings(platform()))

    expect(run.jobs).toEqual({ deploy: 'success', 'revoke-old-tokens': 'success' })
    const fresh = created(platform(), [old, older, other])
    expect(states(platform())).toEqual({
      [old.id]: 'revoked',
      [older.id]: 'revoked',
      [other.id]: 'active',
      [fresh.id]: 'active',
    })
    expect(revokes().sort()).toEqual([revokeLine(old.id), revokeLine(older.id)].sort())
    // Pulled, then the old container replaced; the value passed on by name only.
    expect(run.tools.map((call) => call.args.slice(0, 2).join(' '))).toEqual([
      'pull platform/mediator:latest',
      'rm --force',
      'run --detach',
    ])
    const [container] = calls(run, 'docker', 'run')
    expect(container?.args).toContain('YOURSERVICE_GATEWAY_TOKEN')
    expect(container?.env).toEqual({ YOURSERVICE_GATEWAY_TOKEN: fresh.tokenValue })
    const post = run.steps.find((s) => s.name === 'Post Create a gateway token')
    expect(post?.log).toContain('stays active (revokeOnExit: failure).')
    const secrets = secretsOf(platform(), run, [old, older, other])
    expectNoLeaks(run, secrets)
    expectNothingLeft(run, secrets)
  })

  it.each([
    ['the image cannot be pulled: the running container is left as it was', 'docker pull', 0],
    ['the new container does not start', 'docker run', 1],
  ])('%s, and the new token is revoked', async (_, fail, removed) => {
    const old = platform().seed({ name: 'mediator-docker', ageMs: 30 * DAY })
    const run = await runWorkflow('examples/deploy-docker.yml', { ...settings(platform()), fail })

    expect(run.jobs).toEqual({ deploy: 'failure', 'revoke-old-tokens': 'skipped' })
    const fresh = created(platform(), [old])
    expect(states(platform())).toEqual({ [old.id]: 'active', [fresh.id]: 'revoked' })
    expect(revokes()).toEqual([revokeLine(fresh.id)])
    expect(calls(run, 'docker', 'rm')).toHaveLength(removed)
    const post = run.steps.find((s) => s.name === 'Post Create a gateway token')
    expect(post?.log).toContain("The job failed: revoking the gateway token 'mediator-docker'")
    const secrets = secretsOf(platform(), run, [old])
    expectNoLeaks(run, secrets)
    expectNothingLeft(run, secrets)
  })
})
