// The end-to-end tests' reading of workflow commands: it must find every command the runner finds.
import { describe, expect, it } from '@jest/globals'
import { readWorkflowCommands } from '../support/workflow-commands.mjs'

const read = (stdout: string, stderr = '') => readWorkflowCommands({ stdout, stderr })
const names = (stdout: string, stderr = '') =>
  read(stdout, stderr).commands.map(({ command, syntax }) => `${syntax} ${command}`)

describe('readWorkflowCommands', () => {
  it('reads `::` commands at the start of a line, after leading whitespace', () => {
    expect(names('::error::a\n  ::warning file=x.ts,line=3::b')).toEqual(['v2 error', 'v2 warning'])
    expect(read('  ::warning file=x.ts,line=3::b').commands[0]).toMatchObject({
      properties: { file: 'x.ts', line: '3' },
      message: 'b',
    })
  })

  it('does not read `::` in the middle of a line, or an unknown command', () => {
    expect(names('text ::error::a\n::no-such-command::b\nC# a::b [x]')).toEqual([])
  })

  it('reads the legacy `##[` syntax anywhere in a line', () => {
    expect(names('##[error]a\nname ##[warning]b\nx ##[add-mask]secret')).toEqual([
      'legacy error',
      'legacy warning',
      'legacy add-mask',
    ])
    expect(read('x ##[error file=a.ts;line=2]boom').commands[0]).toMatchObject({
      properties: { file: 'a.ts', line: '2' },
      message: 'boom',
    })
  })

  it('finds `##[` and `::` with zero-width characters between, as .NET’s culture-aware search does', () => {
    expect(names('x #\u200b#[error]a\n\u200b:\u200b:warning::b')).toEqual([
      'legacy error',
      'v2 warning',
    ])
    expect(names('x # #[error]a\n: :warning::b\n## [error]c')).toEqual([])
  })

  it('reads command names in any case, as the runner compares them', () => {
    expect(names('x ##[ERROR]boom\n::Add-Mask::s3cr3t')).toEqual(['legacy error', 'v2 add-mask'])
    expect(read('::Add-Mask::s3cr3t\ns3cr3t').log).toBe('***')
  })

  it('ends a line at a lone carriage return too, as StreamReader.ReadLine does', () => {
    expect(names('ci\r::add-mask::x\r\n::notice::y')).toEqual(['v2 add-mask', 'v2 notice'])
  })

  it('finds the real ##[ behind an earlier look-alike', () => {
    expect(names('a #\u0301#[x] b ##[error]c')).toEqual(['legacy error'])
  })

  it('finds the end of a :: command across zero-width characters', () => {
    expect(read('::error:\u200b:x').errors).toEqual(['x'])
  })

  it('ignores every command, add-mask included, after stop-commands until its token', () => {
    const run = read(
      [
        'a ##[stop-commands]tok',
        '::add-mask::hidden',
        '::error::not an error',
        'hidden is printed',
        '::TOK::',
        '::add-mask::later',
        'later is masked',
      ].join('\n'),
    )
    expect(run.commands.map((c) => c.command)).toEqual(['stop-commands', 'add-mask'])
    expect(run.masked).toEqual(['later'])
    expect(run.errors).toEqual([])
    expect(run.log).toContain('hidden is printed')
    expect(run.log).toContain('*** is masked')
  })

  it('reads stderr too, after stdout', () => {
    expect(names('::notice::a', 'x ##[error]b')).toEqual(['v2 notice', 'legacy error'])
  })

  it('masks each value in the lines after its add-mask, not before', () => {
    const run = read('s3cr3t before\n::add-mask::s3cr3t\ns3cr3t after')
    expect(run.log).toBe('s3cr3t before\n*** after')
  })

  it('carries out set-output and save-state, in either syntax (the runner still does)', () => {
    const run = read('::set-output name=a::1\nx ##[save-state name=b]2\n::set-output name=a::3')
    expect(run.outputs).toEqual({ a: '3' })
    expect(run.state).toEqual({ b: '2' })
    expect(run.failed).toBe(false)
  })

  it('fails the step on a set-output without a name, saying so', () => {
    const run = read('::set-output::orphan')
    expect(run.failed).toBe(true)
    expect(run.annotations.error).toEqual([
      "Unable to process command '::set-output::orphan' successfully.",
      "Required field 'name' is missing in ##[set-output] command.",
    ])
  })

  it('refuses set-env and add-path, failing the step, unless ACTIONS_ALLOW_UNSECURE_COMMANDS', () => {
    const output = '::set-env name=X::1\n::add-path::/opt/bin'
    const refused = read(output)
    expect(refused.failed).toBe(true)
    expect(refused.env).toEqual({})
    expect(refused.path).toEqual([])
    expect(refused.annotations.error).toEqual([
      "Unable to process command '::set-env name=X::1' successfully.",
      expect.stringMatching(
        /^The `set-env` command is disabled\. .*ACTIONS_ALLOW_UNSECURE_COMMANDS/,
      ),
      "Unable to process command '::add-path::/opt/bin' successfully.",
      expect.stringMatching(/^The `add-path` command is disabled\./),
    ])
    const allowed = readWorkflowCommands({ stdout: output }, { allowUnsecure: true })
    expect(allowed.failed).toBe(false)
    expect(allowed.env).toEqual({ X: '1' })
    expect(allowed.path).toEqual(['/opt/bin'])
  })

  it('keeps 10 annotations of each type, each cut to 4,096 characters and masked; the log has all', () => {
    const long = 'w'.repeat(5_000)
    const lines = [
      '::add-mask::s3cr3t',
      ...Array.from({ length: 12 }, (_, i) => `::warning::${i} s3cr3t`),
    ]
    const run = read([...lines, `::error::${long}`, '::notice::n'].join('\n'))
    expect(run.warnings).toHaveLength(12)
    expect(run.annotations.warning).toEqual(Array.from({ length: 10 }, (_, i) => `${i} ***`))
    expect(run.annotations.error).toEqual(['w'.repeat(4_096)])
    expect(run.annotations.notice).toEqual(['n'])
    expect(run.log.split('\n').filter((line) => line.startsWith('Warning: '))).toHaveLength(12)
  })
})
