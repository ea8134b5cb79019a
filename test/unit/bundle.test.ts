// What the bundles leave out: code the action never runs, which every start would parse.
import { describe, expect, it } from '@jest/globals'
import { readFileSync } from 'node:fs'
import { ROOT } from '../support/runner.mjs'

const BUNDLES = ['dist/index.js', 'dist/post/index.js']
const read = (path: string) => readFileSync(`${ROOT}/${path}`, 'utf8')
const bundled = (bundle: string) =>
  [...read(bundle).matchAll(/^;\/\/ CONCATENATED MODULE: (.+)$/gm)].map((match) => match[1])

describe('the bundles (src/bundle/ stands in for what they leave out)', () => {
  it.each(BUNDLES)(
    '%s holds the action and @actions/core, and not undici or @actions/exec',
    (bundle) => {
      const modules = bundled(bundle)
      expect(modules).toEqual(
        expect.arrayContaining([
          './src/github-runner.ts',
          './node_modules/@actions/core/lib/core.js',
          './src/bundle/undici.ts',
        ]),
      )
      expect(
        modules.filter((module) =>
          /node_modules\/(undici|@actions\/(exec|io))\//.test(module ?? ''),
        ),
      ).toEqual([])
      expect(read(bundle)).not.toMatch(/\("child_process"\)/)
    },
  )

  it('the action never asks @actions/core for what needs @actions/exec', () => {
    // core.platform.getDetails() runs a program to name the OS: its import is left out.
    const runner = read('src/github-runner.ts')
    expect(runner).toMatch(/core\.getInput\(/)
    expect(runner).not.toMatch(/core\.platform|getDetails/)
  })
})
