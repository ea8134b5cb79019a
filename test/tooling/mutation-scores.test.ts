import { afterEach, describe, expect, it } from '@jest/globals'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { missing, scores, table } from '../../scripts/mutation-scores.mjs'

/** The per-module gate over Stryker's report (scripts/mutation-scores.mjs). */

const SCRIPT = 'scripts/mutation-scores.mjs'

function mutants(...statuses: string[]): { mutants: { status: string }[] } {
  return { mutants: statuses.map((status) => ({ status })) }
}

const REPORT = {
  files: {
    '/repo/src/text.ts': mutants('Killed', 'Killed', 'Timeout', 'Survived'),
    '/repo/src/a.ts': mutants('Killed', 'NoCoverage', 'CompileError', 'Ignored', 'RuntimeError'),
    '/repo/src/none.ts': mutants('CompileError'),
  },
}

let dir: string | undefined
afterEach(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
  dir = undefined
})

/** The modules the test's Stryker config mutates: the report has a row for each. */
const MUTATED = ['src/a.ts', 'src/none.ts', 'src/text.ts']

function run(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  return runWith(MUTATED, ...args)
}

function runWith(
  mutate: string[],
  ...args: string[]
): { status: number | null; stdout: string; stderr: string } {
  dir = mkdtempSync(join(tmpdir(), 'mutation-scores-'))
  const file = join(dir, 'mutation.json')
  writeFileSync(file, JSON.stringify(REPORT))
  const config = join(dir, 'stryker.config.mjs')
  writeFileSync(config, `export default ${JSON.stringify({ mutate })}\n`)
  const result = spawnSync(process.execPath, [SCRIPT, '--config', config, ...args, file], {
    encoding: 'utf8',
  })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

describe('scores', () => {
  it('counts killed and timed-out mutants as detected, survived and uncovered ones as not, and no other state', () => {
    expect(scores(REPORT)).toEqual([
      { file: 'src/a.ts', detected: 1, undetected: 1, score: 50 },
      { file: 'src/none.ts', detected: 0, undetected: 0, score: 100 },
      { file: 'src/text.ts', detected: 3, undetected: 1, score: 75 },
    ])
  })
})

describe('table', () => {
  it('is a Markdown table, one row per module, the score to one decimal', () => {
    expect(table(scores(REPORT))).toBe(
      [
        '| Module | Score | Detected | Survived |',
        '| --- | ---: | ---: | ---: |',
        '| src/a.ts | 50.0% | 1 | 1 |',
        '| src/none.ts | 100.0% | 0 | 0 |',
        '| src/text.ts | 75.0% | 3 | 1 |',
      ].join('\n'),
    )
  })
})

describe('the command', () => {
  it('fails naming every module under --min', () => {
    const { status, stdout, stderr } = run('--min', '80')
    expect(stdout).toContain('| src/text.ts | 75.0% | 3 | 1 |')
    expect(stderr.trim()).toBe('Under 80%: src/a.ts, src/text.ts')
    expect(status).toBe(1)
  })

  it('passes when every module reaches --min, a module exactly at it included', () => {
    const { status, stderr } = run('--min', '50')
    expect(stderr).not.toContain('Under')
    expect(status).toBe(0)
  })

  it('holds modules to 90% without --min', () => {
    const { status, stderr } = run()
    expect(stderr.trim()).toBe('Under 90%: src/a.ts, src/text.ts')
    expect(status).toBe(1)
  })
})

describe('what the gate refuses besides a low score', () => {
  it('a module the config mutates that the report has no row for (renamed, moved)', () => {
    expect(missing(scores(REPORT), ['src/text.ts', 'src/gone.ts'])).toEqual(['src/gone.ts'])
    const { status, stderr } = runWith([...MUTATED, 'src/gone.ts'], '--min', '50')
    expect(stderr).toContain('No mutants reported for: src/gone.ts')
    expect(status).toBe(1)
  })

  it.each([['abc'], ['101'], ['-1']])('--min %s, which is no percentage', (min) => {
    const { status, stderr } = run('--min', min)
    expect(stderr).toContain('--min must be a percentage from 0 to 100')
    expect(status).not.toBe(0)
  })

  it('--min with no value', () => {
    const { status, stderr } = runWith(MUTATED, '--min')
    expect(stderr).toContain('--min must be a percentage')
    expect(status).not.toBe(0)
  })
})
