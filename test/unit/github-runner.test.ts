import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals'
import { githubRunner } from '../../src/github-runner.js'

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

  it('registers a secret with add-mask', () => {
    githubRunner.setSecret('s3cr3t')
    expect(written.join('')).toMatch(/^::add-mask::s3cr3t\r?\n$/)
  })
})
