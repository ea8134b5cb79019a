import { afterEach, beforeEach, expect } from '@jest/globals'
import { FakePlatform, startFakePlatform } from '../support/fake-platform.mjs'
import { runAction, type ActionRun, type RunOptions } from '../support/runner.mjs'

/**
 * Starts a fresh fake platform around each test of the calling file.
 * @returns a getter: the platform of the running test.
 */
export function useFakePlatform(): () => FakePlatform {
  let platform: FakePlatform | undefined
  beforeEach(async () => {
    platform = await startFakePlatform()
  })
  afterEach(async () => {
    await platform?.close()
    platform = undefined
  })
  return () => {
    if (platform === undefined) throw new Error('no fake platform outside a test')
    return platform
  }
}

/** Runs the committed bundle against the platform, with valid credentials unless overridden. */
export function runAgainst(
  platform: FakePlatform,
  inputs: Record<string, string>,
  options: RunOptions = {},
): Promise<ActionRun> {
  return runAction({ ...options, inputs: { ...platform.connectionInputs(), ...inputs } })
}

/**
 * Checks that no secret reached the log, stderr, the summary or an output in clear.
 * A secret may appear in stdout only in its own `::add-mask::` line, and that line
 * must come before any other mention of it; `allowedOutputs` and `allowedEnv` name
 * where a token value is supposed to go.
 */
export function expectNoLeaks(
  run: ActionRun,
  secrets: readonly string[],
  {
    allowedOutputs = [],
    allowedEnv = [],
  }: { allowedOutputs?: string[]; allowedEnv?: string[] } = {},
): void {
  const lines = run.stdout.split('\n')
  for (const secret of secrets) {
    for (const line of lines.filter((l) => l.includes(secret)))
      expect(line).toBe(`::add-mask::${secret}`)
    expect(run.stderr).not.toContain(secret)
    expect(run.log).not.toContain(secret)
    expect(run.summary).not.toContain(secret)
    for (const [name, value] of Object.entries(run.outputs)) {
      if (!allowedOutputs.includes(name))
        expect([name, value.includes(secret)]).toEqual([name, false])
    }
    for (const [name, value] of Object.entries(run.env)) {
      if (!allowedEnv.includes(name)) expect([name, value.includes(secret)]).toEqual([name, false])
    }
  }
}

/** A failed step shows one error line and no stack trace. */
export function expectCleanFailure(run: ActionRun): string {
  expect(run.exitCode).toBe(1)
  expect(run.errors).toHaveLength(1)
  expect(run.stdout + run.stderr).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m)
  return run.errors[0] ?? ''
}
