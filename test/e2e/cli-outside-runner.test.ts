// The action's bundle where no runner is (no GITHUB_OUTPUT or no GITHUB_STATE): both steps refuse in one line on stderr that points at the command line, before any request, printing nothing of their inputs and leaving no file.
import { describe, expect, it } from '@jest/globals'
import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { node24 } from '../support/node24.mjs'
import { actionMetadata, prepareStep, ROOT, runAction } from '../support/runner.mjs'
import { readWorkflowCommands } from '../support/workflow-commands.mjs'
import { forms } from './cli-helpers.js'
import { useFakePlatform } from './helpers.js'

const platform = useFakePlatform()

/** Every file under a directory, with what it holds: what a run may not change. */
function snapshot(dir: string): Record<string, string> {
  const files = readdirSync(dir, { recursive: true, withFileTypes: true })
  return Object.fromEntries(
    files
      .filter((entry) => entry.isFile())
      .map((entry) => {
        const path = join(entry.parentPath, entry.name)
        return [path.slice(dir.length), readFileSync(path, 'utf8')]
      }),
  )
}

/**
 * Runs a step of the committed bundle as a job would, with `inputs` as INPUT_* (the client
 * secret among them) and `state` as STATE_*, but without the runner files `without`; its
 * TMPDIR and RUNNER_TEMP are read back afterwards.
 */
async function outsideRunner(
  step: 'main' | 'post',
  without: ('GITHUB_OUTPUT' | 'GITHUB_STATE')[],
  { inputs = {}, state = {} }: { inputs?: Record<string, string>; state?: Record<string, string> },
) {
  const { dir, env, files, cleanup } = prepareStep({ inputs, state })
  const tmp = mkdtempSync(join(tmpdir(), 'gateway-token-outside-'))
  try {
    const kept = Object.fromEntries(
      Object.entries(env).filter(([name]) => !(without as string[]).includes(name)),
    )
    const before = snapshot(dir)
    const entry = join(ROOT, actionMetadata().runs[step] ?? '')
    const ran = await new Promise<{ code: number | null; stdout: string; stderr: string }>(
      (resolve, reject) => {
        const child = spawn(node24(), [entry], {
          env: { ...kept, TMPDIR: tmp },
          cwd: dir,
          stdio: ['ignore', 'pipe', 'pipe'],
        })
        let stdout = ''
        let stderr = ''
        child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
          stdout += chunk
        })
        child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
          stderr += chunk
        })
        child.on('error', reject)
        child.on('close', (code) => {
          resolve({ code, stdout, stderr })
        })
      },
    )
    return {
      ...ran,
      inTmp: readdirSync(tmp),
      runnerTempChanged: JSON.stringify(snapshot(dir)) !== JSON.stringify(before),
      runnerFiles: Object.fromEntries(
        (['GITHUB_OUTPUT', 'GITHUB_STATE'] as const)
          .filter((name) => !without.includes(name))
          .map((name) => [name, readFileSync(files[name], 'utf8')]),
      ),
    }
  } finally {
    cleanup()
    rmSync(tmp, { recursive: true, force: true })
  }
}

/** A create that would write a token file, export it and revoke it at the end of the job. */
const createInputs = () => ({
  ...platform().connectionInputs(),
  operation: 'create',
  name: 'laptop',
  writeTokenFile: 'true',
  envName: 'GATEWAY_TOKEN',
  revokeOnExit: 'true',
})

/** What every refusal holds to: one line on stderr, pointing at gateway-token, and nothing else. */
function expectRefused(run: Awaited<ReturnType<typeof outsideRunner>>, secrets: string[]) {
  expect(run.code).not.toBe(0)
  expect(run.stdout).toBe('')
  const lines = run.stderr.split('\n')
  expect(lines).toHaveLength(2)
  expect(lines[1]).toBe('')
  expect(lines[0]).toMatch(/GitHub Action/)
  expect(lines[0]).toMatch(/GITHUB_OUTPUT/)
  expect(lines[0]).toMatch(/command line: .*gateway-token --help/)
  // Nothing that @actions/core prints where no runner is: no ::add-mask::, no ::set-output::.
  expect(readWorkflowCommands({ stdout: run.stdout, stderr: run.stderr }).commands).toEqual([])
  for (const secret of secrets)
    for (const form of forms(secret)) expect(run.stdout + run.stderr).not.toContain(form)
  expect(run.inTmp).toEqual([])
  expect(run.runnerTempChanged).toBe(false)
  for (const content of Object.values(run.runnerFiles)) expect(content).toBe('')
}

describe('the action where no runner is (the committed bundle)', () => {
  const cases: [string, ('GITHUB_OUTPUT' | 'GITHUB_STATE')[]][] = [
    ['neither GITHUB_OUTPUT nor GITHUB_STATE', ['GITHUB_OUTPUT', 'GITHUB_STATE']],
    ['GITHUB_OUTPUT only', ['GITHUB_STATE']],
    ['GITHUB_STATE only', ['GITHUB_OUTPUT']],
  ]

  it.each(cases)('the main step, with %s: refused before any request', async (_, without) => {
    const run = await outsideRunner('main', without, { inputs: createInputs() })
    expectRefused(run, platform().secrets())
    expect(platform().requests).toEqual([])
    expect(platform().tokens.size).toBe(0)
  })

  it.each(cases)(
    'the post step, with %s, after a main step that made a token: refused, the token left as it is',
    async (_, without) => {
      const main = await runAction({ inputs: createInputs() })
      expect(main.exitCode).toBe(0)
      const sent = platform().requests.length
      const run = await outsideRunner('post', without, {
        inputs: createInputs(),
        state: main.state,
      })
      expectRefused(run, platform().secrets())
      expect(platform().requests).toHaveLength(sent)
      expect([...platform().tokens.values()].map((t) => t.state)).toEqual(['active'])
    },
  )

  it('runs with both: the same inputs make a token, so the refusals above are the check', async () => {
    const main = await runAction({ inputs: createInputs() })
    expect(main.exitCode).toBe(0)
    expect([...platform().tokens.values()].map((t) => t.name)).toEqual(['laptop'])
  })
})
