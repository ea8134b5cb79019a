// The layering rules of dependency-cruiser.config.mjs, each broken on purpose in a small project.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { node24 } from '../support/node24.mjs'
import { ROOT } from '../support/runner.mjs'

/**
 * Each file of the project, by the imports it has. The files named `allowed` import
 * what their layer may, and must not be reported: every rule is shown from both sides.
 */
const PROJECT: Record<string, string[]> = {
  'src/index.ts': ['./main.js', './shared/text.js'],
  'src/main.ts': ['./operations/allowed.js', './report/allowed.js', './post/step.js'],
  'src/runner/github-runner.ts': ['@actions/core'],
  'src/runner/runner.ts': [],
  'src/shared/text.ts': [],
  'src/shared/allowed.ts': ['./text.js'],
  'src/shared/upward.ts': ['../inputs/task.js'],
  'src/inputs/task.ts': ['../shared/text.js'],
  'src/inputs/asks-platform.ts': ['../platform/http.js'],
  'src/platform/http.ts': ['@actions/http-client'],
  'src/platform/sends-itself.ts': ['@actions/http-client'],
  'src/platform/allowed.ts': ['./http.js', '../shared/text.js'],
  'src/platform/knows-operation.ts': ['../operations/allowed.js'],
  'src/operations/allowed.ts': ['../platform/allowed.js', '../inputs/task.js'],
  'src/operations/logs.ts': ['../runner/runner.js'],
  'src/operations/circle-a.ts': ['./circle-b.js'],
  'src/operations/circle-b.ts': ['./circle-a.js'],
  'src/report/allowed.ts': ['../operations/allowed.js', '../post/state.js'],
  'src/report/core.ts': ['@actions/core'],
  'src/report/sends.ts': ['../platform/allowed.js'],
  'src/post/state.ts': ['../runner/runner.js'],
  'src/post/step.ts': ['../platform/allowed.js', './state.js'],
  'src/post/starts-main.ts': ['../main.js'],
  // Each other alternative of a rule, broken once too.
  'src/inputs/asks-runner.ts': ['../runner/runner.js'],
  'src/inputs/asks-operations.ts': ['../operations/allowed.js'],
  'src/inputs/asks-report.ts': ['../report/allowed.js'],
  'src/inputs/asks-post.ts': ['../post/state.js'],
  'src/platform/knows-runner.ts': ['../runner/runner.js'],
  'src/platform/knows-inputs.ts': ['../inputs/task.js'],
  'src/platform/knows-report.ts': ['../report/allowed.js'],
  'src/platform/knows-post.ts': ['../post/state.js'],
  'src/operations/reports.ts': ['../report/allowed.js'],
  'src/operations/saves-state.ts': ['../post/state.js'],
  'src/report/runs-post.ts': ['../post/step.js'],
  'src/report/starts-index.ts': ['../index.js'],
  'src/report/starts-post.ts': ['../post.js'],
  'src/post.ts': ['./post/step.js', './runner/github-runner.js', './shared/text.js'],
  'src/cli.ts': ['./cli/command-line.js', './shared/text.js'],
  'src/cli/command-line.ts': ['../main.js', '../post/step.js', '../runner/runner.js'],
  'src/cli/reaches-core.ts': ['../report/core.js'],
}

/** What dependency-cruiser must report: rule, then the module that breaks it. */
const BROKEN = [
  // A circle is reported once, from the module the cruise met first.
  ['no-circular', 'src/operations/circle-a.ts'],
  ['only-the-runner-seam-talks-to-the-runner', 'src/report/core.ts'],
  ['only-the-transport-sends', 'src/platform/sends-itself.ts'],
  ['shared-imports-no-layer', 'src/shared/upward.ts'],
  ['inputs-only-read', 'src/inputs/asks-platform.ts'],
  ['platform-knows-no-operation', 'src/platform/knows-operation.ts'],
  ['operations-return-plain-results', 'src/operations/logs.ts'],
  ['report-only-writes', 'src/report/sends.ts'],
  ['nothing-imports-a-step', 'src/post/starts-main.ts'],
  ['the-entry-points-only-start', 'src/index.ts'],
  ['the-entry-points-only-start', 'src/post.ts'],
  ['inputs-only-read', 'src/inputs/asks-runner.ts'],
  ['inputs-only-read', 'src/inputs/asks-operations.ts'],
  ['inputs-only-read', 'src/inputs/asks-report.ts'],
  ['inputs-only-read', 'src/inputs/asks-post.ts'],
  ['platform-knows-no-operation', 'src/platform/knows-runner.ts'],
  ['platform-knows-no-operation', 'src/platform/knows-inputs.ts'],
  ['platform-knows-no-operation', 'src/platform/knows-report.ts'],
  ['platform-knows-no-operation', 'src/platform/knows-post.ts'],
  ['operations-return-plain-results', 'src/operations/reports.ts'],
  ['operations-return-plain-results', 'src/operations/saves-state.ts'],
  ['report-only-writes', 'src/report/runs-post.ts'],
  ['nothing-imports-a-step', 'src/report/starts-index.ts'],
  ['nothing-imports-a-step', 'src/report/starts-post.ts'],
  ['the-entry-points-only-start', 'src/cli.ts'],
  ['the-command-line-never-reaches-the-github-runner', 'src/cli/reaches-core.ts'],
]

interface Violation {
  rule: { name: string }
  from: string
  to: string
}

let dir: string
let violations: Violation[]

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'architecture-'))
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'))
  for (const file of ['tsconfig.json', 'dependency-cruiser.config.mjs'])
    copyFileSync(join(ROOT, file), join(dir, file))
  for (const [file, imports] of Object.entries(PROJECT)) {
    mkdirSync(join(dir, dirname(file)), { recursive: true })
    const lines = imports.map((from, i) => `import * as m${i} from '${from}'\nvoid m${i}`)
    writeFileSync(join(dir, file), `${lines.join('\n')}\nexport const here = 1\n`)
  }
  const cruiser = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs')
  const args = [cruiser, 'src', '--config', 'dependency-cruiser.config.mjs']
  // It exits 1 when it finds violations: the report is on stdout all the same.
  let output: string
  try {
    output = execFileSync(node24(), [...args, '--output-type', 'json'], {
      cwd: dir,
      encoding: 'utf8',
    })
  } catch (error) {
    output = (error as { stdout: string }).stdout
  }
  violations = (JSON.parse(output) as { summary: { violations: Violation[] } }).summary.violations
}, 60_000)

afterAll(() => {
  rmSync(dir, { recursive: true, force: true })
})

describe('the layering rules (npm run lint:architecture)', () => {
  it.each(BROKEN)('%s: reports %s', (rule, from) => {
    expect(violations).toContainEqual(
      expect.objectContaining({ rule: { name: rule, severity: 'error' }, from }),
    )
  })

  it('reports nothing else: the allowed imports of each layer pass', () => {
    const found = violations.map(({ rule, from }) => [rule.name, from])
    expect(found.sort()).toEqual([...BROKEN].sort())
  })

  it('passes on the action itself', () => {
    const cruiser = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs')
    const output = execFileSync(
      node24(),
      [cruiser, 'src', '--config', 'dependency-cruiser.config.mjs', '--output-type', 'json'],
      { cwd: ROOT, encoding: 'utf8' },
    )
    const report = JSON.parse(output) as {
      summary: { violations: Violation[]; totalCruised: number }
    }
    expect(report.summary.violations).toEqual([])
    expect(report.summary.totalCruised).toBeGreaterThan(30)
  }, 60_000)
})

/** The house rule: small files. Every file of the project that holds code, tests included. */
const MAX_LINES = 300

describe('file sizes', () => {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((file) => /\.(ts|mts|mjs|js|cjs)$/.test(file) && !file.startsWith('dist/'))

  it('finds the code files (src, tests, bench, scripts)', () => {
    expect(files).toContain('src/main.ts')
    expect(files).toContain('test/tooling/architecture.test.ts')
    expect(files.some((file) => file.startsWith('bench/'))).toBe(true)
  })

  it(`has none over ${MAX_LINES} lines`, () => {
    const lines = (file: string) => readFileSync(`${ROOT}/${file}`, 'utf8').split('\n').length - 1
    const over = files.filter((file) => lines(file) > MAX_LINES).map((f) => `${f}: ${lines(f)}`)
    expect(over).toEqual([])
  })
})

/**
 * One owner for each rule of a create's life: its states, the words that revoke a token
 * nobody holds or name it, the time window its token is looked for in and where to look
 * (create-life.ts), each written once in src/; the others call them.
 */
describe('each rule lives in one place', () => {
  const sources = execFileSync(
    'git',
    ['ls-files', '--cached', '--others', '--exclude-standard', 'src'],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  )
    .split('\n')
    .filter((file) => file.endsWith('.ts'))
  const holding = (pattern: RegExp) =>
    sources.filter((file) => pattern.test(readFileSync(`${ROOT}/${file}`, 'utf8')))

  it.each([
    ['the states of a create', /'not sent', 'sent'/, 'create-life.ts'],
    ['"revoked at once"', /revoked at once\./, 'create-life.ts'],
    ['"Revoking it at once failed too"', /Revoking it at once failed too/, 'create-life.ts'],
    ['the clocks’ margins of the time window', /CLOCK_MARGIN_MS = /, 'create-life.ts'],
    ['the time window’s arithmetic', /LATE_CREATE_MS \+/, 'create-life.ts'],
    [
      'where a lost create’s token would be',
      /would be this step's, and nobody has its value/,
      'create-life.ts',
    ],
    ['a file that could not be written', /could not write \$\{file\}/, 'shared/errors.ts'],
    ['whether an audit fails', /function auditFailure/, 'operations/audit.ts'],
    ['whose clock measures ages', /type AgeClock =/, 'shared/time.ts'],
    [
      'a value quoted for a message',
      /JSON\.stringify\((?:truncate|oneLine|showInvisible)/,
      'shared/text.ts',
    ],
  ])('%s: in %s alone', (_, pattern, module) => {
    expect(holding(pattern)).toEqual([
      `src/${module.includes('/') ? module : `platform/${module}`}`,
    ])
  })

  it('a size in a message is said from its constant (formatBytes), never written out', () => {
    // Code only: a comment may say the size it explains.
    const code = (file: string) =>
      readFileSync(`${ROOT}/${file}`, 'utf8')
        .split('\n')
        .filter((line) => !/^\s*(\/\/|\*|\/\*)/.test(line))
        .join('\n')
    expect(sources.filter((file) => /\d ?[KM]iB/.test(code(file)))).toEqual([])
  })
})
