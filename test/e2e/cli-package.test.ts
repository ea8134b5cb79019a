// The npm package as `npm pack` makes it: what it holds, its size, and gateway-token run from it where no dependency is installed, as `npm install --global` or `npx` would.
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { node24 } from '../support/node24.mjs'
import { ROOT } from '../support/runner.mjs'
import { expectClean, platformEnv, runProgram, useCliPlatform } from './cli-helpers.js'

/** The package's size limit, in bytes of the tarball npm uploads (issue 34). */
const MAX_PACKED = 300 * 1024
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string
  bin: Record<string, string>
}
const { platform } = useCliPlatform()
let dir = ''
let packed: { size: number; unpackedSize: number; files: { path: string }[] }

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'gateway-token-package-'))
  // --ignore-scripts: as the release job publishes it, the committed dist/ as it is.
  const json = execFileSync(
    'npm',
    ['pack', '--json', '--ignore-scripts', '--pack-destination', dir],
    { cwd: ROOT, encoding: 'utf8' },
  )
  const [first] = JSON.parse(json) as (typeof packed & { filename: string })[]
  if (first === undefined) throw new Error('npm pack made no package')
  packed = first
  // Unpacked where no node_modules is, above or beside it.
  execFileSync('tar', ['-xzf', join(dir, first.filename), '-C', dir])
})
afterAll(() => {
  rmSync(dir, { recursive: true, force: true })
})

describe('npm pack', () => {
  it('holds the action and the bundles, and nothing of the source or the tests', () => {
    const paths = packed.files.map((file) => file.path)
    expect(paths).toEqual(expect.arrayContaining(['action.yml', 'dist/cli/index.js', 'LICENSE']))
    expect(
      paths.filter(
        (path) => !/^(dist\/|action\.yml$|package\.json$|README\.md$|LICENSE$)/.test(path),
      ),
    ).toEqual([])
  })

  it(`is at most ${MAX_PACKED / 1024} KB`, () => {
    expect(packed.size).toBeLessThanOrEqual(MAX_PACKED)
  })

  it('names gateway-token as its bin: a bundle with a shebang, run with no dependency installed', async () => {
    expect(pkg.bin).toEqual({ 'gateway-token': 'dist/cli/index.js' })
    const bin = join(dir, 'package', pkg.bin['gateway-token'] ?? '')
    expect(readFileSync(bin, 'utf8')).toMatch(/^#!\/usr\/bin\/env node\n/)
    const tmp = mkdtempSync(join(dir, 'tmp-'))
    const env = { PATH: process.env.PATH ?? '', HOME: tmp, TMPDIR: tmp }
    const version = await runProgram([node24(), bin, '--version'], env, dir)
    expect([version.code, version.stdout]).toEqual([0, `${pkg.version}\n`])
    const list = await runProgram(
      [node24(), bin, 'list', '--json'],
      { ...env, ...platformEnv(platform()) },
      dir,
    )
    expect([list.code, list.stdout]).toEqual([0, '[]\n'])
    expectClean({ ...list, leftInTmp: readdirSync(tmp) }, platform())
  })
})
