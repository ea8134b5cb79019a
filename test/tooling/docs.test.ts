import { describe, expect, it } from '@jest/globals'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { parse } from 'yaml'
import { actionMetadata, ROOT } from '../support/runner.mjs'

const readme = readFileSync(`${ROOT}/README.md`, 'utf8')

/**
 * The README is for workflow authors: short enough to read in minutes. Its snippets are whole
 * steps, credentials included, so that one pasted on its own runs (and passes the lint).
 */
const README_MAX_BYTES = 24_000

/** This action, pinned by a full commit SHA with its version in a comment. */
const PINNED_PLACEHOLDER =
  /^your-org\/gateway-token-action(\/\.github\/workflows\/[\w.-]+)?@[0-9a-f]{40} # v\d+\.\d+\.\d+$/

/** Every file under examples/, as `examples/<path>`. */
const EXAMPLES = (readdirSync(`${ROOT}/examples`, { recursive: true }) as string[])
  .map((file) => `examples/${file.split('\\').join('/')}`)
  .filter((file) => /\.\w+$/.test(file))
  .sort()

/** Targets of the README's Markdown links, `[text](target)`. */
const links = [...readme.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1] ?? '')

/** The anchors GitHub makes of the README's headings. */
const anchors = [...readme.matchAll(/^#+ (.+)$/gm)].map((m) =>
  (m[1] ?? '')
    .toLowerCase()
    .replace(/[^\w\s-]/g, '')
    .replace(/\s/g, '-'),
)

/** The README's ```yaml blocks. */
const yamlBlocks = [...readme.matchAll(/^```yaml\n([\s\S]*?)^```$/gm)].map((m) => m[1] ?? '')

/** The text of a `## heading` section, up to the next `## `. */
function sectionOf(heading: string): string {
  const start = readme.indexOf(`\n## ${heading}\n`)
  if (start === -1) return ''
  const end = readme.indexOf('\n## ', start + 1)
  return readme.slice(start, end === -1 ? undefined : end)
}

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
  it('is at most 24 KB, to be read in minutes', () => {
    expect(Buffer.byteLength(readme)).toBeLessThanOrEqual(README_MAX_BYTES)
  })

  it('keeps the two set-up commands in its "Try it locally" section', () => {
    const section = sectionOf('Try it locally')
    expect(section).toContain('npm ci && npm run demo')
    expect(section).toContain('npm ci && npm test')
  })

  it('links only to files that exist, and to headings it has', () => {
    expect(links.length).toBeGreaterThan(0)
    for (const link of links.filter((l) => !/^[a-z]+:/.test(l))) {
      const [path = '', anchor] = link.split('#')
      if (path === '') expect([link, anchors]).toEqual([link, expect.arrayContaining([anchor])])
      else expect([link, existsSync(`${ROOT}/${path}`)]).toEqual([link, true])
    }
  })

  it('links to every file in examples/', () => {
    expect(EXAMPLES.length).toBeGreaterThan(0)
    const linked = new Set(links.map((link) => link.split('#')[0]))
    expect(EXAMPLES.filter((file) => !linked.has(file))).toEqual([])
  })

  it('has YAML snippets that parse, one per scenario at least', () => {
    expect(yamlBlocks.length).toBeGreaterThanOrEqual(6)
    for (const block of yamlBlocks) expect(() => parse(block) as unknown).not.toThrow()
  })

  it('refers to this action by a full commit SHA, and says that it is a placeholder', () => {
    const uses = [...readme.matchAll(/uses: (your-org\/gateway-token-action\S*.*)$/gm)].map(
      (m) => m[1],
    )
    expect(uses.length).toBeGreaterThan(0)
    for (const line of uses) expect(line).toMatch(PINNED_PLACEHOLDER)
    expect(readme).toMatch(/\*\*placeholder\*\*/i)
  })
})

describe('examples', () => {
  const workflows = EXAMPLES.filter((file) => /\.ya?ml$/.test(file))

  it('exist', () => {
    expect(workflows.length).toBeGreaterThan(0)
  })

  it.each(workflows)(
    '%s pins this action by SHA and flags it as a placeholder to replace',
    (file) => {
      const text = readFileSync(`${ROOT}/${file}`, 'utf8')
      const uses = [...text.matchAll(/uses: (your-org\/gateway-token-action\S*.*)$/gm)].map(
        (m) => m[1],
      )
      expect(uses.length).toBeGreaterThan(0)
      for (const line of uses) expect(line).toMatch(PINNED_PLACEHOLDER)
      expect(text).toMatch(/^# Placeholder: replace your-org\/gateway-token-action/m)
    },
  )
})

/** The repository's paths the docs name in code spans, as `src/...`, `.github/...`. */
const DOCS = ['README.md', 'CONTRIBUTING.md', 'SECURITY.md', 'CHANGELOG.md'].concat(
  readdirSync(`${ROOT}/docs`).map((file) => `docs/${file}`),
)
const NAMED_PATH = /`((?:src|test|bench|scripts|examples|docs|\.github)\/[\w./*-]*)`/g
// actions/runner's sources, quoted where the docs explain what the runner does.
const EXTERNAL = /^src\/Runner\./

/** Whether a path exists; a `*` in its last part matches at least one file of its folder. */
function exists(path: string): boolean {
  const slash = path.lastIndexOf('/')
  const name = path.slice(slash + 1)
  if (!name.includes('*')) return existsSync(`${ROOT}/${path}`)
  const folder = `${ROOT}/${path.slice(0, slash)}`
  const pattern = new RegExp(
    `^${name
      .split('*')
      .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  )
  return existsSync(folder) && readdirSync(folder).some((file) => pattern.test(file))
}

/** The paths a document names that are not in the repository. */
function missingPaths(text: string): string[] {
  return [...text.matchAll(NAMED_PATH)]
    .map((match) => (match[1] ?? '').replace(/[.]$/, ''))
    .filter((path) => !EXTERNAL.test(path) && !exists(path))
}

describe('paths the docs name', () => {
  it('exist in the repository, every glob matching a file', () => {
    const named = DOCS.flatMap((doc) =>
      missingPaths(readFileSync(`${ROOT}/${doc}`, 'utf8')).map((path) => `${doc}: ${path}`),
    )
    expect(named).toEqual([])
  })

  it('are found, and one missing, a glob matching nothing, or a misspelt folder is refused', () => {
    const text = [
      '`src/main.ts`, `.github/workflows/ci.yml` and `test/e2e/examples*.test.ts` are there.',
      '`src/gone.ts`, `test/e2e/exmples*.test.ts`, `.github/workflow/ci.yml` are not.',
      'Neither is `src/Runner.Worker/StepsRunner.cs` ours to check.',
    ].join('\n')
    expect(missingPaths(text)).toEqual([
      'src/gone.ts',
      'test/e2e/exmples*.test.ts',
      '.github/workflow/ci.yml',
    ])
  })
})
