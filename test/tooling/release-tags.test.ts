import { afterEach, describe, expect, it } from '@jest/globals'
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { outputLines, parseVersion, releaseTags } from '../../scripts/release-tags.mjs'

/**
 * Which release moves the major tag and which is GitHub's latest
 * (scripts/release-tags.mjs, run by the check job of release.yml).
 */

const SCRIPT = resolve('scripts/release-tags.mjs')

describe('parseVersion', () => {
  it('reads a version tag by its numbers, a pre-release marked', () => {
    expect(parseVersion('v1.10.0')).toEqual({ major: 1, minor: 10, patch: 0, prerelease: false })
    expect(parseVersion('v0.0.0')).toEqual({ major: 0, minor: 0, patch: 0, prerelease: false })
    expect(parseVersion('v2.0.0-rc.1')).toEqual({ major: 2, minor: 0, patch: 0, prerelease: true })
    expect(parseVersion('v2.0.0-beta-2.x')).toEqual({
      major: 2,
      minor: 0,
      patch: 0,
      prerelease: true,
    })
  })

  it.each([
    'v1',
    'v1.2',
    '1.2.3',
    'V1.2.3',
    'v1.2.3.4',
    'v01.2.3',
    'v1.02.3',
    'v1.2.03',
    'v1.2.3-',
    'v1.2.3-rc..1',
    'v1.2.3+build.5',
    'v1.2.3 ',
    'vx.y.z',
    'v9007199254740993.0.0',
    'releases/v1',
    '',
  ])('is not a version: %j', (tag) => {
    expect(parseVersion(tag)).toBeUndefined()
  })
})

describe('releaseTags', () => {
  const V1 = ['v1.0.0', 'v1.1.0', 'v1.2.0']

  it('a first release: moves its major tag and is the latest', () => {
    expect(releaseTags('v1.0.0', [])).toEqual({ major: 'v1', moveMajor: true, latest: true })
    expect(releaseTags('v1.0.0', ['v1.0.0'])).toEqual({
      major: 'v1',
      moveMajor: true,
      latest: true,
    })
  })

  it('a new highest release: moves the major tag and is the latest', () => {
    expect(releaseTags('v1.3.0', [...V1, 'v1.3.0'])).toEqual({
      major: 'v1',
      moveMajor: true,
      latest: true,
    })
  })

  it('a re-run of the highest release: the same again (the major tag stays where it is)', () => {
    expect(releaseTags('v1.2.0', V1)).toEqual({ major: 'v1', moveMajor: true, latest: true })
  })

  it('a re-run of an older release: neither moves the major tag back nor becomes the latest', () => {
    expect(releaseTags('v1.1.0', V1)).toEqual({ major: 'v1', moveMajor: false, latest: false })
    expect(releaseTags('v1.0.0', V1)).toEqual({ major: 'v1', moveMajor: false, latest: false })
  })

  it('an older tag pushed after a newer one of its major (v1.1.1 after v1.2.0): same', () => {
    expect(releaseTags('v1.1.1', [...V1, 'v1.1.1'])).toEqual({
      major: 'v1',
      moveMajor: false,
      latest: false,
    })
  })

  it('orders by numbers, not text: v1.10.0 outranks v1.9.0, and v10 outranks v9', () => {
    const tags = ['v1.9.0', 'v1.10.0']
    expect(releaseTags('v1.10.0', tags)).toEqual({ major: 'v1', moveMajor: true, latest: true })
    expect(releaseTags('v1.9.0', tags)).toEqual({ major: 'v1', moveMajor: false, latest: false })
    expect(releaseTags('v1.2.10', ['v1.2.9'])).toMatchObject({ moveMajor: true, latest: true })
    expect(releaseTags('v1.2.9', ['v1.2.10'])).toMatchObject({ moveMajor: false, latest: false })
    expect(releaseTags('v9.0.0', ['v10.0.0'])).toEqual({
      major: 'v9',
      moveMajor: true,
      latest: false,
    })
    expect(releaseTags('v10.0.0', ['v9.9.9'])).toEqual({
      major: 'v10',
      moveMajor: true,
      latest: true,
    })
  })

  it('a backport from releases/v1 after v2 exists: moves v1, is not the latest', () => {
    const tags = [...V1, 'v2.0.0', 'v2.1.0', 'v1.2.1']
    expect(releaseTags('v1.2.1', tags)).toEqual({ major: 'v1', moveMajor: true, latest: false })
    // And the highest of v2 still is the latest.
    expect(releaseTags('v2.1.0', tags)).toEqual({ major: 'v2', moveMajor: true, latest: true })
  })

  it('the first release of a new major: starts its major tag and is the latest', () => {
    expect(releaseTags('v2.0.0', [...V1, 'v2.0.0'])).toEqual({
      major: 'v2',
      moveMajor: true,
      latest: true,
    })
  })

  it('a pre-release: moves no tag and is never the latest, even as the highest tag', () => {
    expect(releaseTags('v2.0.0-rc.1', [...V1, 'v2.0.0-rc.1'])).toEqual({
      major: 'v2',
      moveMajor: false,
      latest: false,
    })
    expect(releaseTags('v1.3.0-rc.1', V1)).toEqual({
      major: 'v1',
      moveMajor: false,
      latest: false,
    })
  })

  it('pre-releases outrank nothing: the stable release after them moves and is the latest', () => {
    const tags = [...V1, 'v1.3.0-rc.1', 'v2.0.0-rc.1', 'v2.0.0-rc.2']
    expect(releaseTags('v1.2.0', tags)).toEqual({ major: 'v1', moveMajor: true, latest: true })
    // v1.3.0 after its own release candidate.
    expect(releaseTags('v1.3.0', [...tags, 'v1.3.0'])).toEqual({
      major: 'v1',
      moveMajor: true,
      latest: true,
    })
  })

  it('leaves out existing tags that are not versions', () => {
    const tags = ['v1.0.0', 'v1.99', 'v1.2.3.4', 'v01.5.0', 'v1.x.y', 'v1', 'latest', 'v2']
    expect(releaseTags('v1.0.0', tags)).toEqual({ major: 'v1', moveMajor: true, latest: true })
  })

  it.each(['v1', 'v1.2', 'v1.2.3.4', 'v01.2.3', 'main', 'v1.2.3+build', ''])(
    'refuses a pushed tag that is not a version: %j',
    (tag) => {
      expect(() => releaseTags(tag, ['v1.0.0'])).toThrow(`${tag} is not a version tag like v1.2.3`)
    },
  )
})

describe('outputLines', () => {
  it('are the lines of $GITHUB_OUTPUT the release workflow reads', () => {
    expect(outputLines({ major: 'v1', moveMajor: true, latest: false })).toBe(
      'major=v1\nmove_major=true\nlatest=false',
    )
  })
})

describe('the command line', () => {
  let dir: string | undefined
  afterEach(() => {
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
    dir = undefined
  })

  /** A repository with one commit and these tags (lightweight, as fetched). */
  function repository(tags: string[]): string {
    dir = mkdtempSync(join(tmpdir(), 'release-tags-'))
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'commit.gpgsign=false', '-c', 'tag.gpgsign=false', ...args], {
        cwd: dir,
        env: {
          ...process.env,
          GIT_AUTHOR_NAME: 'test',
          GIT_AUTHOR_EMAIL: 'test@example.com',
          GIT_COMMITTER_NAME: 'test',
          GIT_COMMITTER_EMAIL: 'test@example.com',
        },
      })
    git('init', '--quiet')
    git('commit', '--quiet', '--allow-empty', '-m', 'release')
    for (const tag of tags) git('tag', tag)
    return dir
  }

  function run(cwd: string, ...args: string[]) {
    // Git looks for a repository no higher than the temporary directory.
    const env = { ...process.env, GIT_CEILING_DIRECTORIES: tmpdir() }
    const result = spawnSync(process.execPath, [SCRIPT, ...args], { cwd, env, encoding: 'utf8' })
    return { status: result.status, stdout: result.stdout, stderr: result.stderr }
  }

  it("reads the repository's version tags and prints the decision for $GITHUB_OUTPUT", () => {
    // v1 (the major tag) and releases/... are tags git lists too; only versions count.
    const cwd = repository(['v1.9.0', 'v1.10.0', 'v2.0.0-rc.1', 'v1', 'v1.x.y'])
    expect(run(cwd, 'v1.10.0')).toEqual({
      status: 0,
      stdout: 'major=v1\nmove_major=true\nlatest=true\n',
      stderr: '',
    })
    expect(run(cwd, 'v1.9.0')).toEqual({
      status: 0,
      stdout: 'major=v1\nmove_major=false\nlatest=false\n',
      stderr: '',
    })
  })

  it('fails with an error annotation on a tag that is not a version', () => {
    const cwd = repository(['v1.0.0'])
    expect(run(cwd, 'v1.0')).toEqual({
      status: 1,
      stdout: '',
      stderr: '::error::v1.0 is not a version tag like v1.2.3 or v2.0.0-rc.1.\n',
    })
    expect(run(cwd)).toMatchObject({ status: 1, stdout: '' })
  })

  it('fails outside a git repository rather than decide without the tags', () => {
    dir = mkdtempSync(join(tmpdir(), 'release-tags-'))
    const result = run(dir, 'v1.0.0')
    expect(result.status).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toContain('::error::')
  })
})
