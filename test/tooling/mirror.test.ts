// test/unit mirrors src/ (CONTRIBUTING.md, Layout): the tests of src/X/Y.ts are
// test/unit/X/Y.test.ts or, too long for one file, the files of a folder test/unit/X/Y/;
// nothing else is in test/unit.
import { describe, expect, it } from '@jest/globals'
import { execFileSync } from 'node:child_process'
import { posix } from 'node:path'
import { ROOT } from '../support/runner.mjs'

const UNIT = 'test/unit/'
const TEST = '.test.ts'

/**
 * What breaks the mirror among `paths` (the repository's files, from its root): each file of
 * test/unit that is not a test of a module of src/, and each module tested by both a file and
 * a folder. A folder named as one of src/ mirrors that folder (test/unit/post/ is src/post/,
 * not more tests of src/post.ts).
 */
function breaksOfTheMirror(paths: string[]): string[] {
  const modules = new Set(
    paths.filter((path) => /^src\/.+\.ts$/.test(path)).map((path) => path.slice(4, -3)),
  )
  const folders = new Set([...modules].map((module) => posix.dirname(module)))
  const byFile = new Set<string>()
  const byFolder = new Set<string>()
  const strays: string[] = []
  for (const file of paths.filter((path) => path.startsWith(UNIT))) {
    const path = file.slice(UNIT.length, -TEST.length)
    const folder = posix.dirname(path)
    if (!file.endsWith(TEST)) strays.push(file)
    else if (modules.has(path)) byFile.add(path)
    else if (modules.has(folder) && !folders.has(folder)) byFolder.add(folder)
    else strays.push(file)
  }
  const both = [...byFile]
    .filter((module) => byFolder.has(module))
    .map((module) => `${UNIT}${module}${TEST} and ${UNIT}${module}/`)
  return [...strays, ...both]
}

describe('test/unit mirrors src/', () => {
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((file) => file !== '')

  it('holds the unit tests, each at the path of the module it tests', () => {
    expect(files.filter((file) => file.startsWith('test/unit/')).length).toBeGreaterThan(50)
    expect(breaksOfTheMirror(files)).toEqual([])
    const stray = 'test/unit/platform/retry.test.ts'
    expect(breaksOfTheMirror([...files, stray])).toEqual([stray])
  })

  it('takes a test at a module’s path, or the files of a folder there', () => {
    const mirrored = [
      'src/main.ts',
      'src/post.ts',
      'src/post/step.ts',
      'src/platform/client.ts',
      'src/inputs/parsers.ts',
      'test/unit/main/run.test.ts',
      'test/unit/post.test.ts',
      'test/unit/post/step.test.ts',
      'test/unit/platform/client.test.ts',
      'test/unit/inputs/parsers/url.test.ts',
      'test/unit/inputs/parsers/env-name.test.ts',
      'test/tooling/docs.test.ts',
    ]
    expect(breaksOfTheMirror(mirrored)).toEqual([])
  })

  it('refuses a test named after no module, a helper, a folder in a folder, and both at once', () => {
    const modules = [
      'src/post.ts',
      'src/post/step.ts',
      'src/platform/client.ts',
      'src/shared/time.ts',
    ]
    const strays = [
      'test/unit/platform/retry.test.ts',
      'test/unit/platform/client-lost-create.test.ts',
      'test/unit/golden-messages-post.test.ts',
      'test/unit/post/cancel.test.ts',
      'test/unit/platform/client/helpers.ts',
      'test/unit/platform/client/faults/reset.test.ts',
      'test/unit/shared/time.test.ts',
      'test/unit/shared/time/clock.test.ts',
    ]
    expect(breaksOfTheMirror([...modules, ...strays])).toEqual([
      'test/unit/platform/retry.test.ts',
      'test/unit/platform/client-lost-create.test.ts',
      'test/unit/golden-messages-post.test.ts',
      'test/unit/post/cancel.test.ts',
      'test/unit/platform/client/helpers.ts',
      'test/unit/platform/client/faults/reset.test.ts',
      'test/unit/shared/time.test.ts and test/unit/shared/time/',
    ])
  })
})
