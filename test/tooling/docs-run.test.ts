// Every YAML snippet of the README and every example is run by an end-to-end test, and none
// of the repository's files cites one outside it.
import { describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { ROOT } from '../support/runner.mjs'

const readme = readFileSync(`${ROOT}/README.md`, 'utf8')
/** The end-to-end tests, as one text: where a snippet or an example is named to be run. */
const tests = readdirSync(`${ROOT}/test/e2e`)
  .filter((file) => file.endsWith('.test.ts'))
  .map((file) => readFileSync(`${ROOT}/test/e2e/${file}`, 'utf8'))
  .join('\n')

describe('what the docs show runs', () => {
  it('has each YAML snippet of the README run by an end-to-end test, by its heading', () => {
    // The heading each block is under: the one that `snippet(heading)` finds it by.
    const sections = readme.split(/^(?=#+ )/m).filter((section) => /^```yaml$/m.test(section))
    const headings = sections.map((section) => section.split('\n')[0] ?? '')
    expect(headings.length).toBe([...readme.matchAll(/^```yaml$/gm)].length)
    expect(headings.length).toBeGreaterThan(6)
    expect(headings.filter((heading) => !tests.includes(`snippet('${heading}')`))).toEqual([])
  })

  it('runs each workflow of examples/, and uses each composite action there in one of them', () => {
    const entries = readdirSync(`${ROOT}/examples`, { withFileTypes: true })
    const workflows = entries.filter((e) => e.isFile() && e.name.endsWith('.yml'))
    expect(workflows.length).toBeGreaterThan(10)
    const run = (name: string) => tests.includes(`'examples/${name}'`)
    expect(workflows.map((e) => e.name).filter((name) => !run(name))).toEqual([])
    const actions = entries
      .filter((e) => e.isDirectory())
      .filter((e) => readdirSync(`${ROOT}/examples/${e.name}`).includes('action.yml'))
    expect(actions.length).toBeGreaterThan(0)
    const used = (dir: string) =>
      workflows.some((e) =>
        readFileSync(`${ROOT}/examples/${e.name}`, 'utf8').includes(`uses: ./examples/${dir}\n`),
      )
    expect(actions.map((e) => e.name).filter((dir) => !used(dir))).toEqual([])
  })
})

describe('the repository', () => {
  // The team's own notes (the contract, the runner's facts, conventions, tools) live outside
  // the repository: a clone must read whole without them. docs/RUNNER.md holds the facts.
  // Nor a path of the machine it was written on.
  const OUTSIDE =
    /\.\.\/shared\/(?:spec|hooks)\/|\b(?:CONTRACT|CONVENTIONS)\.md\b|(?:^|[\s'"`(])\/(?:work|home|root)\//m

  it('cites no file outside it', () => {
    const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
      cwd: ROOT,
      encoding: 'utf8',
    })
      .split('\n')
      .filter((file) => file !== '' && !/^dist\/|package-lock\.json$|\.(?:crt|key)$/.test(file))
    const citing = files.filter((file) => OUTSIDE.test(readFileSync(`${ROOT}/${file}`, 'utf8')))
    expect(citing).toEqual([])
  })

  it('finds such a citation where one is (this test names none)', () => {
    // Put together here, so that this file does not cite them itself.
    const shared = ['..', 'shared'].join('/')
    const citations = [
      `${shared}/spec/RUNNER.md`,
      `${shared}/hooks/w.mjs`,
      ['CONTRACT', 'md'].join('.'),
    ]
    for (const text of citations) expect(OUTSIDE.test(`see ${text}`)).toBe(true)
    expect(OUTSIDE.test("import { x } from '../shared/text.js'")).toBe(false)
  })
})
