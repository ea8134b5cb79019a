// What the tests of examples/ share: the settings the examples read, and the checks that
// no secret leaked and that nothing was left behind.
import { expect } from '@jest/globals'
import { PROJECT_ID, type FakePlatform } from '../support/fake-platform.mjs'
import type { ToolCall } from '../support/fake-tools.mjs'
import type { WorkflowRun } from '../support/workflow-runner.mjs'

export const DAY = 86_400_000

/** The Nomad ACL token of the Nomad example: a secret too, never to be printed. */
export const NOMAD_TOKEN = 'nomad-acl-5b1c3d2e-8f47-4a06-9e1d-7c2b4a6f0e93'

/** The secrets and variables the examples read, pointing at the fake platform. */
export function settings(p: FakePlatform) {
  return {
    secrets: {
      PLATFORM_CLIENT_ID: p.clientId,
      PLATFORM_CLIENT_SECRET: p.clientSecret,
      KUBECONFIG: 'apiVersion: v1\nkind: Config\n',
      NOMAD_TOKEN,
    },
    vars: {
      PLATFORM_API_URL: p.baseUrl,
      PLATFORM_AUTH_URL: p.authUrl,
      PLATFORM_PROJECT_ID: PROJECT_ID,
      NOMAD_ADDR: 'https://nomad.internal.example:4646',
    },
    // The examples' jobs name it (environment: production); its own secrets and vars are
    // none here: the repository's reach it (README, "Before you start").
    // Every environment the examples and snippets name, with no secrets of their own.
    environments: Object.fromEntries(
      ['production', 'preview', 'staging', 'production-eu', 'production-us'].map((n) => [n, {}]),
    ),
  }
}

/**
 * Every secret of a run: what the platform holds and handed out (the client secret, access
 * tokens, the values of tokens still active), the values of tokens it revoked (the platform
 * forgets those: the create steps' outputs and the seeded records give them), and
 * everything the run masked.
 */
export function secretsOf(
  p: FakePlatform,
  run: WorkflowRun,
  seeded: readonly { tokenValue?: string }[] = [],
): string[] {
  const created = run.steps.map((step) => step.outputs.tokenValue ?? '')
  const values = [...p.secrets(), ...created, ...seeded.map((t) => t.tokenValue ?? '')]
  return [...new Set([...values, ...run.masked])].filter((value) => value !== '')
}

/**
 * No secret in any argument of a tool, in any log line (as shown or as printed), in a job
 * summary or in a step output other than tokenValue (in clear, in base64, or a 12-character
 * piece of it); a token value only where a tool read it on purpose (a file it was named,
 * stdin, or a variable passed on by name).
 */
export function expectNoLeaks(run: WorkflowRun, secrets: readonly string[]): void {
  expect(secrets.length).toBeGreaterThan(0)
  const printed = run.steps
    .flatMap((step) => step.raw.split('\n'))
    .filter((line) => !line.startsWith('::add-mask::'))
    .join('\n')
  const shown = run.steps.map((step) => step.log).join('\n')
  const summaries = run.steps.map((step) => step.summary ?? '').join('\n')
  const outputs = run.steps
    .flatMap((step) => Object.entries(step.outputs))
    .filter(([name]) => name !== 'tokenValue')
    .map(([, value]) => value)
    .join('\n')
  const args = run.tools.map((call) => call.args.join(' ')).join('\n')
  for (const secret of secrets) {
    const base64 = Buffer.from(secret).toString('base64')
    for (const text of [printed, shown, summaries, outputs, args]) {
      expect(text).not.toContain(secret)
      expect(text).not.toContain(base64)
      for (const piece of pieces(secret)) expect(text).not.toContain(piece)
    }
  }
}

/** 12-character pieces of the random end of a secret (JWT-like ones share their header). */
function pieces(secret: string): string[] {
  if (secret.length < 24) return []
  const tail = secret.slice(-36)
  const found: string[] = []
  for (let at = 0; at + 12 <= tail.length; at += 6) found.push(tail.slice(at, at + 12))
  return found
}

/**
 * The post steps left nothing behind: after each job, no file in its directory (RUNNER_TEMP,
 * HOME, the workspace) holds a secret, and no token file of a create step is left.
 */
export function expectNothingLeft(run: WorkflowRun, secrets: readonly string[]): void {
  const tokenFiles = run.steps.map((step) => step.outputs.tokenFile ?? '').filter((f) => f !== '')
  for (const [job, files] of Object.entries(run.leftovers)) {
    for (const [path, content] of Object.entries(files)) {
      const held = secrets.filter((secret) => content.includes(secret))
      expect({ job, path, held }).toEqual({ job, path, held: [] })
    }
    for (const tokenFile of tokenFiles) {
      expect(Object.keys(files).filter((path) => tokenFile.endsWith(`/${path}`))).toEqual([])
    }
  }
}

/** The calls of one tool whose arguments begin so (`calls(run, 'kubectl', 'apply')`). */
export function calls(run: WorkflowRun, tool: string, ...start: string[]): ToolCall[] {
  return run.tools.filter(
    (call) => call.tool === tool && start.every((arg, i) => call.args[i] === arg),
  )
}

/** The one record the run created: the platform's record not among those seeded. */
export function created(p: FakePlatform, seeded: readonly { id: string }[]) {
  const fresh = [...p.tokens.values()].filter((t) => !seeded.some((s) => s.id === t.id))
  const [record] = fresh
  if (fresh.length !== 1 || record === undefined) throw new Error(`${fresh.length} new tokens`)
  return record
}

/** Each token's state now, by id, for exact assertions on what a run changed. */
export function states(p: FakePlatform): Record<string, string> {
  return Object.fromEntries([...p.tokens.values()].map((t) => [t.id, t.state]))
}
