// The workflows of examples/, run as GitHub would run them, with fake deploy tools:
// rotation.yml here; the others in examples-*.test.ts.
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
} from './example-helpers.js'
import { revokeLine, useFakePlatform } from './helpers.js'

const platform = useFakePlatform()

describe('examples/rotation.yml: a rotation that fails safely', () => {
  it('deploy succeeds: the new token is deployed from its file and active, the old one revoked', async () => {
    const old = platform().seed({ name: 'mediator-production', ageMs: 30 * DAY })
    const run = await runWorkflow('examples/rotation.yml', settings(platform()))

    expect(run.jobs).toEqual({ deploy: 'success', 'revoke-old-tokens': 'success' })
    const fresh = created(platform(), [old])
    expect(fresh.state).toBe('active')
    expect(platform().tokens.get(old.id)?.state).toBe('revoked')
    // The new token reached kubectl from the token file, into a Secret of this run's own.
    const [secret] = calls(run, 'kubectl', 'create', 'secret')
    expect(Object.values(secret?.files ?? {})).toEqual([fresh.tokenValue])
    expect(secret?.args.slice(0, 4)).toEqual([
      'create',
      'secret',
      'generic',
      'mediator-gateway-token-4242',
    ])
    const [apply] = calls(run, 'kubectl', 'apply')
    expect(apply?.stdin).toContain(Buffer.from(fresh.tokenValue ?? '').toString('base64'))
    // Helm waits for the new pods, and rolls back if they never become ready.
    const [upgrade] = calls(run, 'helm', 'upgrade')
    expect(upgrade?.args).toEqual(
      expect.arrayContaining([
        '--atomic',
        '--wait',
        '--set',
        'mediator.secretName=mediator-gateway-token-4242',
      ]),
    )
    // The post step kept the new token; the second job revoked the old one, keeping the new
    // one by its id, handed on as the deploy job's output.
    const post = run.steps.find((s) => s.stage === 'post')
    expect(post?.log).toContain('The job succeeded:')
    expect(post?.log).toContain('stays active (revokeOnExit: failure).')
    const cleanup = run.steps.find((s) => s.job === 'revoke-old-tokens' && s.kind === 'action')
    expect(cleanup?.inputs.keepIds).toBe(fresh.id)
    expect(cleanup?.log).toContain(`(${fresh.id}), 0m old: its id is in keepIds.`)
    expect(run.warnings).toEqual([])
    const secrets = secretsOf(platform(), run, [old])
    expectNoLeaks(run, secrets)
    expectNothingLeft(run, secrets)
  })

  it('a token of the name made since the deploy (another run) does not cost the deployed one its place', async () => {
    const old = platform().seed({ name: 'mediator-production', ageMs: 30 * DAY })
    // Dated after anything this run creates: the newest of the name, which keep: 1 keeps.
    const newer = platform().seed({ name: 'mediator-production', ageMs: -DAY })
    const run = await runWorkflow('examples/rotation.yml', settings(platform()))

    expect(run.jobs).toEqual({ deploy: 'success', 'revoke-old-tokens': 'success' })
    const fresh = created(platform(), [old, newer])
    expect(fresh.state).toBe('active')
    expect(platform().tokens.get(newer.id)?.state).toBe('active')
    expect(platform().tokens.get(old.id)?.state).toBe('revoked')
  })

  it('deploy fails: the post step revokes the new token, the old one stays in service', async () => {
    const old = platform().seed({ name: 'mediator-production', ageMs: 30 * DAY })
    const run = await runWorkflow('examples/rotation.yml', {
      ...settings(platform()),
      fail: 'helm upgrade',
    })

    expect(run.jobs).toEqual({ deploy: 'failure', 'revoke-old-tokens': 'skipped' })
    const fresh = created(platform(), [old])
    expect(fresh.state).toBe('revoked')
    expect(platform().tokens.get(old.id)?.state).toBe('active')
    const post = run.steps.find((s) => s.stage === 'post')
    expect(post?.log).toContain(`The job failed: revoking the gateway token 'mediator-production'`)
    // No cleanup ran: the only revoke was the post step's, of the new token.
    expect(
      platform()
        .requestLines()
        .filter((line) => line.includes('/revoke')),
    ).toEqual([revokeLine(fresh.id)])
    const secrets = secretsOf(platform(), run, [old])
    expectNoLeaks(run, secrets)
    expectNothingLeft(run, secrets)
  })
})
