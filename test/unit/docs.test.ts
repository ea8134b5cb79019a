import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { actionMetadata, ROOT } from '../support/runner.mjs'

const readme = readFileSync(`${ROOT}/README.md`, 'utf8')

/** The rows of the first table after a `## heading`, as arrays of trimmed cells. */
function table(heading: string): string[][] {
  const section = readme.slice(readme.indexOf(`\n## ${heading}\n`) + 1)
  const lines = section.split('\n')
  const start = lines.findIndex((line) => line.startsWith('|'))
  const rows = lines.slice(
    start + 2,
    lines.findIndex((line, i) => i > start && !line.startsWith('|')),
  )
  return rows.map((row) =>
    row
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim()),
  )
}

/** The names in a cell: `a`, `b` -> [a, b]. */
const names = (cell: string | undefined) => [...(cell ?? '').matchAll(/`(\w+)`/g)].map((m) => m[1])

const metadata = actionMetadata() as unknown as {
  inputs: Record<string, { required?: boolean; default?: string }>
  outputs: Record<string, unknown>
}

describe('README tables match action.yml', () => {
  const inputs = table('Inputs')
  const outputs = table('Outputs')

  it('lists every input of action.yml, and no other', () => {
    expect(inputs.map(([name]) => names(name)[0])).toEqual(Object.keys(metadata.inputs))
  })

  it.each(inputs.map((row) => [names(row[0])[0] ?? '', row[1] ?? '']))(
    'gives %s the default of action.yml',
    (name, shown) => {
      const input = metadata.inputs[name]
      const expected = input?.required
        ? '(required)'
        : input?.default === ''
          ? "`''`"
          : `\`${input?.default ?? ''}\``
      expect(shown).toBe(expected)
    },
  )

  it('lists every output of action.yml, and no other', () => {
    expect(outputs.flatMap(([name]) => names(name)).sort()).toEqual(
      Object.keys(metadata.outputs).sort(),
    )
  })
})

describe('README', () => {
  it('starts with the two quickstart commands', () => {
    const quickstart = readme.slice(0, readme.indexOf('## Usage'))
    expect(quickstart).toContain('npm ci && npm run demo')
    expect(quickstart).toContain('npm ci && npm test')
  })
})
