import { beforeEach, describe, expect, it, jest } from '@jest/globals'
import * as core from '../fixtures/core.js'

jest.unstable_mockModule('@actions/core', () => core)
const { githubRunner } = await import('../../src/runner.js')

beforeEach(() => {
  jest.clearAllMocks()
})

describe('githubRunner', () => {
  it('keeps every info line on one line, so that platform text cannot start a workflow command', () => {
    githubRunner.info("It was: token abc\n::add-mask::x\r\n::stop-commands::y, created at '?'.")
    expect(core.info).toHaveBeenCalledWith(
      "It was: token abc ::add-mask::x ::stop-commands::y, created at '?'.",
    )
  })

  it('passes warnings and notices to core, which escapes them as commands', () => {
    githubRunner.warning('a\nb')
    githubRunner.notice('c')
    expect(core.warning).toHaveBeenCalledWith('a\nb')
    expect(core.notice).toHaveBeenCalledWith('c')
  })
})
