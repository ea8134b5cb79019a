// The workflows of examples/, run as GitHub would run them, with fake deploy tools.
import { describe, expect, it } from '@jest/globals'
import { PROJECT_ID, type FakePlatform } from '../support/fake-platform.mjs'
import { runWorkflow, type WorkflowRun } from '../support/workflow-runner.mjs'
import { useFakePlatform } from './helpers.js'

const platform = useFakePlatform()
const DAY = 86_400_000

/** The secrets and variables the examples read, pointing at the fake platform. */
function settings(p: FakePlatform) {
  return {
    secrets: {
      PLATFORM_CLIENT_ID: p.clientId,
      PLATFORM_CLIENT_SECRET: p.clientSecret,
      KUBECONFIG: 'apiVersion: v1\nkind: Config\n',
    },
    vars: {
      PLATFORM_API_URL: p.baseUrl,
      PLATFORM_AUTH_URL: p.authUrl,
      PLATFORM_PROJECT_ID: PROJECT_ID,
    },
  }
}

/**
 * No secret in any argument of a tool, in any log line (as shown or as printed), or in
 * base64 anywhere but where a tool read it from a pipe.
 */
function expectNoLeaks(run: WorkflowRun, secrets: readonly string[]): void {
  expect(secrets.length).toBeGreaterThan(0)
  const printed = run.steps
    .flatMap((step) => step.raw.split('\n'))
    .filter((line) => !line.startsWith('::add-mask::'))
    .join('\n')
  const shown = run.steps.map((step) => step.log).join('\n')
  const args = run.tools.map((call) => call.args.join(' ')).join('\n')
  for (const secret of secrets) {
    const base64 = Buffer.from(secret).toString('base64')
    for (const text of [printed, shown, args]) {
      expect(text).not.toContain(secret)
      expect(text).not.toContain(base64)
    }
  }
}

describe('examples/rotation.yml: a rotation that fails safely', () => {
  it('deploy succeeds: the new token is deployed from its file and active, the old one revoked', async () => {
    const old = platform().seed({ name: 'mediator-production', ageMs: 30 * DAY })
    const run = await runWorkflow('examples/rotation.yml', settings(platform()))

    expect(run.jobs).toEqual({ deploy: 'success', 'revoke-old-tokens': 'success' })
    const fresh = [...platform().tokens.values()].find((t) => t.id !== old.id)
    expect(fresh?.state).toBe('active')
    expect(platform().tokens.get(old.id)?.state).toBe('revoked')
    // The new token reached kubectl from the token file, into a Secret of this run's own.
    const secret = run.tools.find((c) => c.tool === 'kubectl' && c.args[1] === 'secret')
    expect(Object.values(secret?.files ?? {})).toEqual([fresh?.tokenValue])
    expect(secret?.args.slice(0, 4)).toEqual([
      'create',
      'secret',
      'generic',
      'mediator-gateway-token-4242',
    ])
    const apply = run.tools.find((c) => c.tool === 'kubectl' && c.args[0] === 'apply')
    expect(apply?.stdin).toContain(Buffer.from(fresh?.tokenValue ?? '').toString('base64'))
    // Helm waits for the new pods, and rolls back if they never become ready.
    const upgrade = run.tools.find((c) => c.tool === 'helm' && c.args[0] === 'upgrade')
    expect(upgrade?.args).toEqual(
      expect.arrayContaining([
        '--atomic',
        '--wait',
        '--set',
        'mediator.secretName=mediator-gateway-token-4242',
      ]),
    )
    // The post step kept the new token; the second job revoked the old one.
    const post = run.steps.find((s) => s.stage === 'post')
    expect(post?.log).toContain('The job succeeded:')
    expect(post?.log).toContain('stays active (revokeOnExit: failure).')
    expectNoLeaks(run, platform().secrets())
  })

  it('deploy fails: the post step revokes the new token, the old one stays in service', async () => {
    const old = platform().seed({ name: 'mediator-production', ageMs: 30 * DAY })
    const run = await runWorkflow('examples/rotation.yml', {
      ...settings(platform()),
      fail: 'helm upgrade',
    })

    expect(run.jobs).toEqual({ deploy: 'failure', 'revoke-old-tokens': 'skipped' })
    const fresh = [...platform().tokens.values()].find((t) => t.id !== old.id)
    expect(fresh?.state).toBe('revoked')
    expect(platform().tokens.get(old.id)?.state).toBe('active')
    const post = run.steps.find((s) => s.stage === 'post')
    expect(post?.log).toContain(`The job failed: revoking the gateway token 'mediator-production'`)
    // No cleanup ran: the only revoke was the post step's, of the new token.
    expect(
      platform()
        .requestLines()
        .filter((line) => line.includes('/revoke')),
    ).toEqual([`POST /api/tokens/${fresh?.id ?? ''}/revoke?tokenId=${fresh?.id ?? ''}`])
    expectNoLeaks(run, platform().secrets())
  })
})
