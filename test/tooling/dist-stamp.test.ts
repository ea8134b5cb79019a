import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  checkStamp,
  sourceFiles,
  sourceHash,
  STAMP,
  writeStamp,
} from '../../scripts/dist-stamp.mjs'
import distGuard from '../support/dist-guard.mjs'

/** The stamp that keeps the end-to-end tests off a stale dist/ (scripts/dist-stamp.mjs). */

const STALE = /^dist\/ was built from other sources than src\/.* run npm run package/

let root: string
beforeEach(() => {
  root = project()
})
afterEach(() => {
  rmSync(root, { recursive: true, force: true })
})

/** A repository in a temporary directory: a few sources and a dist/. */
function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'dist-stamp-'))
  mkdirSync(join(dir, 'src/platform'), { recursive: true })
  mkdirSync(join(dir, 'dist'))
  writeFileSync(join(dir, 'src/main.ts'), 'export const answer = 42\n')
  writeFileSync(join(dir, 'src/platform/client.ts'), 'export const client = {}\n')
  writeFileSync(join(dir, 'package.json'), '{"version": "1.0.0"}\n')
  writeFileSync(join(dir, 'package-lock.json'), '{"lockfileVersion": 3}\n')
  writeFileSync(join(dir, 'tsconfig.json'), '{}\n')
  writeFileSync(join(dir, 'dist/index.js'), '// the bundle\n')
  return dir
}

describe('checkStamp', () => {
  it('passes when dist/ carries the stamp of the current sources', () => {
    writeStamp(root)
    expect(checkStamp(root)).toBeUndefined()
    expect(() => {
      distGuard(undefined, { rootDir: root })
    }).not.toThrow()
  })

  it('says so, naming npm run package, once one source file changed', () => {
    writeStamp(root)
    writeFileSync(join(root, 'src/platform/client.ts'), 'export const client = { v: 2 }\n')
    expect(checkStamp(root)).toMatch(STALE)
    // The e2e project's global setup stops the run with that message.
    expect(() => {
      distGuard(undefined, { rootDir: root })
    }).toThrow(STALE)
    writeStamp(root)
    expect(checkStamp(root)).toBeUndefined()
  })

  it('says so when there is no stamp at all', () => {
    expect(checkStamp(root)).toMatch(/^dist\/ was built from other sources than src\/.*missing/)
  })

  it.each<[string, string, string]>([
    ['a source file added', 'src/new.ts', ''],
    ['package.json (the version the bundle sends)', 'package.json', '{"version": "1.0.1"}\n'],
    ['package-lock.json', 'package-lock.json', '{}\n'],
    ['tsconfig.json', 'tsconfig.json', '{"strict":1}\n'],
  ])('notices a change of %s', (_, file, content) => {
    writeStamp(root)
    writeFileSync(join(root, file), content)
    expect(checkStamp(root)).toMatch(STALE)
  })

  it('notices a source file renamed', () => {
    writeStamp(root)
    renameSync(join(root, 'src/main.ts'), join(root, 'src/entry.ts'))
    expect(checkStamp(root)).toMatch(STALE)
  })

  it.each<[string, string, string]>([
    ['a file in src/ that is not TypeScript', 'src/notes.md', '#'],
    ['the bundle itself', 'dist/index.js', '// other\n'],
    ['a file outside src/', 'README.md', '# readme\n'],
  ])('ignores %s', (_, file, content) => {
    writeStamp(root)
    writeFileSync(join(root, file), content)
    expect(checkStamp(root)).toBeUndefined()
  })
})

describe('the stamp', () => {
  it('is the same for the same sources anywhere, at any time: no clock, no absolute path', () => {
    const elsewhere = project()
    try {
      writeStamp(root)
      writeStamp(elsewhere)
      expect(readFileSync(join(root, STAMP), 'utf8')).toBe(
        readFileSync(join(elsewhere, STAMP), 'utf8'),
      )
      expect(readFileSync(join(root, STAMP), 'utf8')).toMatch(/^[0-9a-f]{64}\n$/)
    } finally {
      rmSync(elsewhere, { recursive: true, force: true })
    }
  })

  it('hashes every .ts file under src/ and the three build files, in sorted order', () => {
    writeFileSync(join(root, 'src/platform/a.ts'), '')
    expect(sourceFiles(root)).toEqual([
      'package-lock.json',
      'package.json',
      'src/main.ts',
      'src/platform/a.ts',
      'src/platform/client.ts',
      'tsconfig.json',
    ])
  })

  it('tells a file from its neighbour: moving bytes between two files changes it', () => {
    writeFileSync(join(root, 'src/a.ts'), 'ab')
    writeFileSync(join(root, 'src/b.ts'), 'c')
    const before = sourceHash(root)
    writeFileSync(join(root, 'src/a.ts'), 'a')
    writeFileSync(join(root, 'src/b.ts'), 'bc')
    expect(sourceHash(root)).not.toBe(before)
  })
})
