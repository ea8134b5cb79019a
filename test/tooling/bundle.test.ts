// What the bundles leave out: code the action never runs, which every start would parse.
import { describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { ROOT } from '../support/runner.mjs'

const BUNDLES = ['dist/index.js', 'dist/post/index.js']
const read = (path: string) => readFileSync(`${ROOT}/${path}`, 'utf8')

/**
 * Text that only each left-out package holds, read from the package itself, so that the
 * check needs nothing of how the bundler lays modules out, and fails if the text moves.
 */
const LEFT_OUT = [
  {
    pkg: 'undici',
    file: 'node_modules/undici/lib/core/errors.js',
    text: 'UND_ERR_CONNECT_TIMEOUT',
  },
  {
    pkg: '@actions/exec',
    file: 'node_modules/@actions/exec/lib/exec.js',
    text: 'argStringToArray',
  },
  {
    pkg: '@actions/io',
    file: 'node_modules/@actions/io/lib/io.js',
    text: 'Unable to locate executable file',
  },
]

describe('the bundles (src/bundle/ stands in for what they leave out)', () => {
  it.each(LEFT_OUT)('$pkg holds $text (what the bundles are searched for)', ({ file, text }) => {
    expect(read(file)).toContain(text)
  })

  it.each(BUNDLES)('%s holds the action, @actions/core and the undici stand-in', (bundle) => {
    const code = read(bundle)
    // The action's own words, core's, and the stand-in's.
    expect(code).toContain('is not an input of this action')
    expect(code).toContain("'add-mask'")
    expect(code).toContain('undici is not bundled with this action')
  })

  it.each(BUNDLES)('%s holds nothing of undici, @actions/exec or @actions/io', (bundle) => {
    const code = read(bundle)
    for (const { text } of LEFT_OUT) expect(code).not.toContain(text)
    expect(code).not.toContain('child_process')
  })

  it.each(BUNDLES)('%s holds the version of package.json, and nothing else of it', (bundle) => {
    const code = read(bundle)
    const pkg = JSON.parse(read('package.json')) as { version: string; devDependencies: object }
    expect(code).toContain(JSON.stringify(pkg.version))
    expect(code).toContain('gateway-token-action/')
    for (const name of Object.keys(pkg.devDependencies)) expect(code).not.toContain(`"${name}"`)
  })

  it('src/ writes no version number of its own: package.json holds it', () => {
    const sources = execFileSync('git', ['ls-files', 'src'], { cwd: ROOT, encoding: 'utf8' })
    const versioned = sources
      .split('\n')
      .filter((file) => file.endsWith('.ts'))
      .filter((file) => /['"`]\d+\.\d+\.\d+['"`]/.test(read(file)))
    expect(versioned).toEqual([])
  })

  it('the action never asks @actions/core for what needs @actions/exec', () => {
    // core.platform.getDetails() runs a program to name the OS: its import is left out.
    const runner = read('src/runner/github-runner.ts')
    expect(runner).toMatch(/core\.getInput\(/)
    expect(runner).not.toMatch(/core\.platform|getDetails/)
  })
})
