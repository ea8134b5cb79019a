// The parts of `npm run lint:actions` that need no linter: Markdown snippets, local actions.
import { describe, expect, it } from '@jest/globals'
import { parse } from 'yaml'
import { localAsSelf, pathInRepository } from '../../scripts/lint-actions/actions.mjs'
import {
  markdownPosition,
  snippetKind,
  wrapSnippet,
  yamlSnippets,
} from '../../scripts/lint-actions/snippets.mjs'

const STEPS = `- id: token
  uses: your-org/gateway-token-action@0000000000000000000000000000000000000000 # v1.0.0
  with:
    operation: create
- run: |
    echo one

    echo two
`

describe('the snippets of a Markdown file', () => {
  const markdown = [
    '# Title', // 1
    '```sh', // 2
    'npm test', // 3
    '```', // 4
    '```yaml', // 5
    '- run: echo', // 6
    '```', // 7
    '```yml', // 8
    'uses: a/b@c', // 9
    '```', // 10
    '```yaml', // 11
    'jobs: {}', // 12
  ].join('\n')

  it('are its yaml and yml blocks, each with the line of its first line, an unclosed one too', () => {
    expect(yamlSnippets('README.md', markdown)).toEqual([
      { file: 'README.md', line: 6, text: '- run: echo\n' },
      { file: 'README.md', line: 9, text: 'uses: a/b@c\n' },
      { file: 'README.md', line: 12, text: 'jobs: {}\n' },
    ])
  })

  it('are steps, a workflow, or something the linters do not read', () => {
    expect(snippetKind(STEPS)).toBe('steps')
    expect(snippetKind('jobs:\n  a:\n    runs-on: ubuntu-latest\n')).toBe('workflow')
    expect(snippetKind('uses: a/b@c # v1\n')).toBeUndefined()
    expect(snippetKind('# a comment only\n')).toBeUndefined()
    expect(() => snippetKind('- a: [\n')).toThrow()
  })
})

describe('a snippet made into a workflow', () => {
  it('puts steps into one job, unchanged, a block scalar with its blank line included', () => {
    const wrapped = wrapSnippet(STEPS, 'steps', '[push, pull_request]')
    const workflow = parse(wrapped.text) as {
      on: string[]
      jobs: { snippet: { 'runs-on': string; steps: unknown[] } }
    }
    expect(workflow.on).toEqual(['push', 'pull_request'])
    expect(workflow.jobs.snippet['runs-on']).toBe('ubuntu-latest')
    expect(workflow.jobs.snippet.steps).toEqual(parse(STEPS))
    // Line for line: the snippet's lines follow the lines added before it.
    const lines = wrapped.text.split('\n')
    expect(lines.slice(wrapped.lines).map((line) => line.slice(wrapped.indent))).toEqual(
      STEPS.split('\n'),
    )
  })

  it('gives a workflow an `on:` when it has none, and leaves one that has it as it is', () => {
    const jobs = 'jobs:\n  a:\n    runs-on: ubuntu-latest\n'
    expect(wrapSnippet(jobs, 'workflow')).toEqual({
      text: `on: workflow_dispatch\n${jobs}`,
      lines: 1,
      indent: 0,
    })
    const whole = `on: push\n${jobs}`
    expect(wrapSnippet(whole, 'workflow', 'pull_request')).toEqual({
      text: whole,
      lines: 0,
      indent: 0,
    })
  })

  it('maps a position in the workflow back to the Markdown, one in the added lines to its first', () => {
    const snippet = { file: 'README.md', line: 40, text: STEPS }
    const wrapped = wrapSnippet(STEPS, 'steps')
    // `operation:` is the snippet's 4th line, at its 5th column.
    const at = wrapped.text.split('\n').findIndex((line) => line.includes('operation:'))
    const character = (wrapped.text.split('\n')[at] ?? '').indexOf('operation')
    expect(markdownPosition(snippet, wrapped, at, character)).toEqual({ line: 43, column: 5 })
    expect(markdownPosition(snippet, wrapped, 0, 0)).toEqual({ line: 40, column: 1 })
    expect(markdownPosition(snippet, wrapped, wrapped.lines - 1, 4)).toEqual({
      line: 40,
      column: 1,
    })
  })
})

describe('the files a uses: names in this repository', () => {
  it.each([
    ['./', '.'],
    ['$/.', '.'],
    ['./.github/actions/check-post-step', '.github/actions/check-post-step'],
    ['$/.github/actions/check-post-step', '.github/actions/check-post-step'],
    ['your-org/gateway-token-action@0000000000000000000000000000000000000000', '.'],
    ['your-org/gateway-token-action@v1', '.'],
    [
      'your-org/gateway-token-action/.github/workflows/cleanup.yml@0000000000000000000000000000000000000000',
      '.github/workflows/cleanup.yml',
    ],
  ])('%s is %s', (uses, path) => {
    expect(pathInRepository(uses)).toBe(path)
  })

  it.each([
    'actions/checkout@08c6903cd8c0fde910a37f88322edcfb5dd907a8',
    'your-org/another-action@v1',
    'other-org/gateway-token-action@v1',
    'docker://alpine:3',
    './../elsewhere',
    'your-org/gateway-token-action/../../etc@v1',
  ])('%s is not here', (uses) => {
    expect(pathInRepository(uses)).toBeUndefined()
  })
})

describe("a workflow's local actions, as the language service reads them", () => {
  const workflow = `jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: ./ # this action
      - name: check
        uses: ./.github/actions/check-post-step
      - uses: actions/checkout@08c6903cd8c0fde910a37f88322edcfb5dd907a8
      - uses: './'
  release:
    uses: ./.github/workflows/ci.yml
`

  it("are the steps' uses: ./path written $/path, each line kept, a job's uses: left", () => {
    const { text, was } = localAsSelf(workflow)
    expect(text.split('\n')).toEqual(
      workflow
        .replace('uses: ./ #', 'uses: $/. #')
        .replace('uses: ./.github/actions/', 'uses: $/.github/actions/')
        .split('\n'),
    )
    // Quoted, it is left as it was.
    expect(text).toContain("- uses: './'")
    expect(text).toContain('    uses: ./.github/workflows/ci.yml')
    expect([...was]).toEqual([
      ['$/.', './'],
      ['$/.github/actions/check-post-step', './.github/actions/check-post-step'],
    ])
  })
})
