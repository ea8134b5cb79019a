// The runner emulation (test/support/runner.mjs) against actions/runner's own rules, with small scripts standing in for a step.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { runAction, type RunOptions } from '../support/runner.mjs'

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'runner-emulation-'))
})
afterAll(() => {
  rmSync(dir, { recursive: true, force: true })
})

/** Runs `body` (a module's code, with `fs` imported) as a step, as the runner would. */
async function step(body: string, options: RunOptions = {}) {
  const script = join(dir, `step-${Math.random().toString(36).slice(2)}.mjs`)
  writeFileSync(script, `import fs from 'node:fs'\nconst env = process.env\n${body}\n`)
  return runAction({ ...options, script })
}

describe('file commands, as actions/runner reads them after a step', () => {
  it('keeps a \\r before \\n in a value: lines end at \\n on Linux', async () => {
    const run = await step(
      `fs.appendFileSync(env.GITHUB_OUTPUT, 'a=1\\r\\nb<<EOF\\nx\\r\\ny\\nEOF\\n')`,
    )
    expect(run.outputs).toEqual({ a: '1\r', b: 'x\r\ny' })
    expect(run.outcome).toBe('success')
  })

  it('fails the step on a file it cannot process, even with exit code 0; the other files still count', async () => {
    const run = await step(
      `fs.appendFileSync(env.GITHUB_ENV, 'X=1\\n'); fs.appendFileSync(env.GITHUB_OUTPUT, 'a<<EOF\\nnever closed\\n')`,
    )
    expect(run.exitCode).toBe(0)
    expect(run.outcome).toBe('failure')
    expect(run.annotations.error).toEqual([
      "Unable to process file command 'output' successfully.",
      "Invalid value. Matching delimiter not found 'EOF'",
    ])
    expect(run.env).toEqual({ X: '1' })
    expect(run.log).toContain("Error: Unable to process file command 'output' successfully.")
  })

  it('reads a file written with a byte-order mark', async () => {
    const run = await step(`fs.writeFileSync(env.GITHUB_STATE, '\\ufeffk=v\\n')`)
    expect(run.state).toEqual({ k: 'v' })
  })

  it('refuses NODE_OPTIONS in GITHUB_ENV with an error annotation, without failing the step', async () => {
    const run = await step(`fs.appendFileSync(env.GITHUB_ENV, 'node_options=--require x\\nY=2\\n')`)
    expect(run.env).toEqual({ Y: '2' })
    expect(run.annotations.error).toEqual([
      "Can't store NODE_OPTIONS output parameter using '$GITHUB_ENV' command.",
    ])
    expect(run.outcome).toBe('success')
  })

  it('puts GITHUB_PATH before PATH for the next step, the last line first', async () => {
    const first = await step(`fs.appendFileSync(env.GITHUB_PATH, '/opt/a\\n/opt/b\\n')`)
    expect(first.path).toEqual(['/opt/b', '/opt/a'])
    const second = await step(`console.log(env.PATH)`, { path: first.path })
    expect(second.stdout.startsWith('/opt/b:/opt/a:')).toBe(true)
  })

  it('drops a step summary over 1 MiB with an error, without failing the step', async () => {
    const run = await step(`fs.writeFileSync(env.GITHUB_STEP_SUMMARY, 'x'.repeat(1024 * 1024 + 1))`)
    expect(run.summary).toBe('')
    expect(run.annotations.error).toEqual([
      '$GITHUB_STEP_SUMMARY upload aborted, supports content up to a size of 1024k, got 1024k.',
    ])
    expect(run.outcome).toBe('success')
  })

  it('gives each step new, empty files under RUNNER_TEMP/_runner_file_commands', async () => {
    const run = await step(`console.log(env.GITHUB_OUTPUT, fs.statSync(env.GITHUB_OUTPUT).size)`)
    expect(run.stdout).toMatch(/\/_runner_file_commands\/set_output_[0-9a-f-]{36} 0\n$/)
  })
})

describe('workflow commands, carried out', () => {
  it('applies set-output and save-state; a file value for the same name wins', async () => {
    const run = await step(
      `console.log('::set-output name=a::from command'); console.log('::save-state name=s::1'); fs.appendFileSync(env.GITHUB_OUTPUT, 'a=from file\\n')`,
    )
    expect(run.outputs).toEqual({ a: 'from file' })
    expect(run.state).toEqual({ s: '1' })
  })

  it('fails a step that uses set-env, unless ACTIONS_ALLOW_UNSECURE_COMMANDS is true', async () => {
    const body = `console.log('::set-env name=X::1')`
    const refused = await step(body)
    expect(refused.exitCode).toBe(0)
    expect(refused.outcome).toBe('failure')
    expect(refused.env).toEqual({})
    const allowed = await step(body, { env: { ACTIONS_ALLOW_UNSECURE_COMMANDS: 'true' } })
    expect(allowed.outcome).toBe('success')
    expect(allowed.env).toEqual({ X: '1' })
  })
})

describe('the life of a step', () => {
  const SLOW = `process.on('SIGINT', () => { console.log('SIGINT'); setTimeout(() => process.exit(0), 50) }); setTimeout(() => {}, 10_000)`

  it('timeout-minutes: SIGINT when they run out, and the step fails saying so', async () => {
    const run = await step(SLOW, { timeoutMinutes: 1, minuteMs: 300 })
    expect(run.signals.map(({ signal }) => signal)).toEqual(['SIGINT'])
    expect(run.outcome).toBe('failure')
    expect(run.annotations.error).toEqual([
      "The action 'gateway-token' has timed out after 1 minutes.",
    ])
  })

  it('timeout-minutes are whole minutes, as the runner casts them: 0.9 is no timeout', async () => {
    const run = await step(`setTimeout(() => {}, 400)`, { timeoutMinutes: 0.9, minuteMs: 100 })
    expect(run.signals).toEqual([])
    expect(run.outcome).toBe('success')
  })

  it('a cancel: SIGINT, then SIGTERM 7.5 s later unless it ended; the step is cancelled', async () => {
    const started = Date.now()
    // Once its handler is set: a cancel before that ends Node at once, as on a runner.
    const run = await step(SLOW, { cancel: { when: () => Date.now() - started > 400 } })
    expect(run.signals.map(({ signal }) => signal)).toEqual(['SIGINT'])
    expect(run.stdout).toContain('SIGINT')
    expect(run.outcome).toBe('cancelled')
  })
})
