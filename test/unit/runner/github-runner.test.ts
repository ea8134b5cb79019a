import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { EOL, tmpdir } from 'node:os'
import { join } from 'node:path'
import { ActionError } from '../../../src/shared/errors.js'
import { githubRunner } from '../../../src/runner/github-runner.js'

// @actions/core writes to stdout; what it wrote is what the runner reads.
let written: string[] = []
beforeEach(() => {
  written = []
  jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
    written.push(String(chunk))
    return true
  })
})
afterEach(() => {
  jest.restoreAllMocks()
})

describe('githubRunner', () => {
  it('keeps every info line on one line, so that platform text cannot start a workflow command', () => {
    githubRunner.info("It was: token abc\n::add-mask::x\r\n::stop-commands::y, created at '?'.")
    expect(written.join('')).toMatch(
      /^It was: token abc ::add-mask::x ::stop-commands::y, created at '\?'\.\r?\n$/,
    )
  })

  it('writes warnings and notices as workflow commands, their text escaped', () => {
    githubRunner.warning('a\nb')
    githubRunner.notice('c')
    expect(written.join('')).toMatch(/^::warning::a%0Ab\r?\n::notice::c\r?\n$/)
  })

  it("names the step's inputs from its INPUT_* variables, in any case, and nothing else", () => {
    const saved = process.env
    try {
      process.env = Object.fromEntries(
        Object.entries(saved).filter(([name]) => !name.toUpperCase().startsWith('INPUT_')),
      )
      process.env.INPUT_OLDER_THAN = '30d'
      process.env.input_keep = '1'
      process.env.NOT_AN_INPUT = 'x'
      process.env.MY_INPUT_X = 'x'
      expect(githubRunner.inputNames().sort()).toEqual(['OLDER_THAN', 'keep'])
    } finally {
      process.env = saved
    }
  })

  it('registers a secret with add-mask', () => {
    githubRunner.setSecret('s3cr3t')
    expect(written.join('')).toMatch(/^::add-mask::s3cr3t\r?\n$/)
  })

  it('registers a secret exactly as given, ##[ and all, or it would not be masked', () => {
    githubRunner.setSecret('s##[x]')
    expect(written.join('')).toBe(`::add-mask::s##[x]${EOL}`)
  })

  it('writes an output as it is: it goes to a file, not to the log', () => {
    const dir = mkdtempSync(join(tmpdir(), 'github-runner-'))
    const saved = process.env.GITHUB_OUTPUT
    process.env.GITHUB_OUTPUT = join(dir, 'output')
    try {
      writeFileSync(process.env.GITHUB_OUTPUT, '')
      githubRunner.setOutput('name', 'x ##[stop-commands]y')
      expect(readFileSync(process.env.GITHUB_OUTPUT, 'utf8')).toContain(
        `${EOL}x ##[stop-commands]y${EOL}`,
      )
      expect(written).toEqual([])
    } finally {
      if (saved === undefined) delete process.env.GITHUB_OUTPUT
      else process.env.GITHUB_OUTPUT = saved
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it.each([
    [
      'GITHUB_OUTPUT',
      () => {
        githubRunner.setOutput('tokenValue', 'v')
      },
    ],
    [
      'GITHUB_ENV',
      () => {
        githubRunner.exportVariable('GW_TOKEN', 'v')
      },
    ],
    [
      'GITHUB_STATE',
      () => {
        githubRunner.saveState('revokeOnExitTokenId', 'v')
      },
    ],
  ])('names %s when it cannot be written: gone missing, or a full disk', (file, write) => {
    const saved = process.env
    process.env = { ...saved }
    try {
      process.env[file] = join(tmpdir(), 'no-such-dir-gateway-token', 'file')
      expect(write).toThrow(ActionError)
      expect(write).toThrow(new RegExp(`^could not write ${file}: Missing file at path: `))
      if (existsSync('/dev/full')) {
        process.env[file] = '/dev/full'
        expect(write).toThrow(
          new RegExp(`^could not write ${file}: ENOSPC: no space left on device`),
        )
      }
    } finally {
      process.env = saved
    }
  })

  it('writes an info line holding a legacy command in its middle without ##[', () => {
    githubRunner.info("Revoked gateway token 'x ##[stop-commands]y' (id-1).")
    expect(written.join('')).toBe(`Revoked gateway token 'x ## [stop-commands]y' (id-1).${EOL}`)
    expect(written.join('')).not.toContain('##[')
  })

  it('writes a hostile info line so that neither command syntax can read it', () => {
    githubRunner.info('  ::add-mask::x\n##[stop-commands]y ###[warning]w ##[##[abc123]')
    expect(written.join('')).toBe(
      `: :add-mask::x ## [stop-commands]y ### [warning]w ## [## [abc123]${EOL}`,
    )
  })

  it('takes ##[ out of warnings, notices and debug lines, which core escapes', () => {
    githubRunner.warning('a ##[error]b\n##[stop-commands]c 100%')
    githubRunner.notice('##[add-mask]n')
    githubRunner.debug('d ##[set-output name=x]v')
    expect(written.join('')).toBe(
      `::warning::a ## [error]b%0A## [stop-commands]c 100%25${EOL}` +
        `::notice::## [add-mask]n${EOL}` +
        `::debug::d ## [set-output name=x]v${EOL}`,
    )
  })

  it('takes ##[ out of the failure message', () => {
    const exitCode = process.exitCode
    try {
      githubRunner.setFailed('Could not revoke x ##[add-mask]y\r\n::error::z')
      expect(written.join('')).toBe(
        `::error::Could not revoke x ## [add-mask]y%0D%0A::error::z${EOL}`,
      )
    } finally {
      // core.setFailed marks the process as failed: not this test run.
      process.exitCode = exitCode
    }
  })

  // action.yml: name must not be blank. The runner passes inputs as they were written;
  // core.getInput trims them, so a blank name arrives empty and is refused as missing.
  it('reads an input trimmed, so that a blank one is empty', () => {
    const saved = process.env.INPUT_NAME
    try {
      process.env.INPUT_NAME = ' \t\u00a0 '
      expect(githubRunner.getInput('name')).toBe('')
      process.env.INPUT_NAME = '  ci-deploy \n'
      expect(githubRunner.getInput('name')).toBe('ci-deploy')
    } finally {
      if (saved === undefined) delete process.env.INPUT_NAME
      else process.env.INPUT_NAME = saved
    }
  })

  it('hears SIGINT and SIGTERM while listening, in place of Node ending the process, and stops', () => {
    const before = [process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')]
    const heard: string[] = []
    const stop = githubRunner.onCancel((signal) => heard.push(signal))
    expect(process.listenerCount('SIGINT')).toBe((before[0] ?? 0) + 1)
    process.emit('SIGINT')
    process.emit('SIGTERM')
    expect(heard).toEqual(['SIGINT', 'SIGTERM'])
    stop()
    expect([process.listenerCount('SIGINT'), process.listenerCount('SIGTERM')]).toEqual(before)
  })
})
