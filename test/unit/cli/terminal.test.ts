// terminal: the command line's Runner, whose log on stderr is scrubbed and never a runner command, and whose files go with it.
import { describe, expect, it } from '@jest/globals'
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, isAbsolute, join } from 'node:path'
import { terminal } from '../../../src/cli/terminal.js'
import { FakeClock } from '../../fixtures/clock.js'
import { ActionError, InputError } from '../../../src/shared/errors.js'
import { record } from '../../fixtures/nock-platform.js'

/** A terminal over `inputs` whose stdout and stderr are kept. */
function kept(inputs: Record<string, string> = {}, env: NodeJS.ProcessEnv = {}) {
  const streams = { out: [] as string[], err: [] as string[] }
  const made = terminal(inputs, {
    env,
    clock: new FakeClock(),
    streams: {
      out: (text) => streams.out.push(text),
      err: (text) => streams.err.push(text),
    },
  })
  return { ...made, streams }
}

describe('terminal: the log', () => {
  it('writes each message on stderr, one line, by kind', () => {
    const { runner, streams } = kept()
    runner.info('Created a\ntoken.')
    runner.warning('careful')
    runner.notice('note')
    runner.debug('only for the runner’s debug log')
    expect(streams.err).toEqual(['Created a token.\n', 'warning: careful\n', 'notice: note\n'])
    expect(streams.out).toEqual([])
  })

  it('scrubs what the step masks, in any form a server echoes it', () => {
    const { runner, streams } = kept()
    runner.setSecret('eyJ.gateway.value')
    runner.info(
      `value eyJ.gateway.value, as base64 ${Buffer.from('eyJ.gateway.value').toString('base64')}`,
    )
    expect(streams.err.join('')).not.toMatch(/eyJ\.gateway|ZXlK/)
    expect(streams.err).toEqual(['value ***, as base64 ***\n'])
  })

  it('scrubs what goes to stdout of every value masked but those it is told to leave', () => {
    const { runner, stdoutScrubber } = kept()
    runner.setSecret('cs-client-secret')
    runner.setSecret('eyJ.listed.value')
    const scrub = stdoutScrubber([record({ tokenValue: 'eyJ.listed.value' })])
    const hex = Buffer.from('cs-client-secret').toString('hex')
    expect(scrub(`a cs-client-secret b ${hex}`)).toBe('a *** b ***')
    expect(scrub('eyJ.listed.value')).toBe('eyJ.listed.value')
    // Once per distinct text, the same answer.
    expect(scrub(`a cs-client-secret b ${hex}`)).toBe('a *** b ***')
    expect(stdoutScrubber([])('eyJ.listed.value')).toBe('***')
  })

  it('never writes a runner command, at the start of a line or anywhere in it', () => {
    const { runner, streams } = kept()
    runner.warning('::add-mask::x')
    runner.info('::set-output name=tokenValue::v ##[set-output name=a;]b')
    expect(streams.err.join('')).not.toMatch(/^::|##\[/m)
  })

  it('names an input as the command line spells it in the failure', () => {
    const { runner, streams } = kept()
    runner.setFailed('Input \'olderThan\' must be a duration like 30d; got "soon".')
    runner.setFailed("Input 'clientId' is required: the API client id.")
    expect(streams.err).toEqual([
      'error: --older-than must be a duration like 30d; got "soon".\n',
      'error: --client-id or PLATFORM_CLIENT_ID is required: the API client id.\n',
    ])
  })
})

describe('terminal: inputs, outputs, state and files', () => {
  it('reads its inputs trimmed, names them as the runner spells their variables', () => {
    const { runner } = kept({ olderThan: ' 30d ', clientId: 'c' })
    expect(runner.getInput('olderThan')).toBe('30d')
    expect(runner.getInput('keep')).toBe('')
    expect(runner.inputNames()).toEqual(['OLDERTHAN', 'CLIENTID'])
  })

  it('keeps outputs and state in memory, for exec and the post step', () => {
    const { runner, outputs } = kept()
    runner.setOutput('tokenFile', '/tmp/x')
    runner.saveState('create', '{}')
    expect(outputs.get('tokenFile')).toBe('/tmp/x')
    expect(runner.getState('create')).toBe('{}')
    expect(runner.getState('tokenFile')).toBe('')
  })

  it('makes a temp dir of its own only when asked, and removes it with what is in it', () => {
    const { runner, cleanUp } = kept()
    cleanUp()
    const dir = runner.tempDir()
    expect(runner.tempDir()).toBe(dir)
    expect(basename(dir)).toMatch(/^gateway-token-/)
    writeFileSync(join(dir, 'gateway-tokens-x.json'), '[]')
    cleanUp()
    expect(existsSync(dir)).toBe(false)
    // Again: nothing left to remove, and no error.
    cleanUp()
  })

  it('makes it under the TMPDIR of its environment', () => {
    const parent = mkdtempSync(join(tmpdir(), 'terminal-'))
    try {
      const { runner, cleanUp } = kept({}, { TMPDIR: parent })
      expect(dirname(runner.tempDir())).toBe(parent)
      cleanUp()
      expect(readdirSync(parent)).toEqual([])
    } finally {
      rmSync(parent, { recursive: true, force: true })
    }
  })

  it('makes it an absolute path under a relative TMPDIR: COMMAND may change directory', () => {
    const { runner, cleanUp } = kept({}, { TMPDIR: '.' })
    try {
      expect(isAbsolute(runner.tempDir())).toBe(true)
      expect(dirname(runner.tempDir())).toBe(process.cwd())
    } finally {
      cleanUp()
    }
  })

  it('tells the step to write no job summary: a terminal has none', () => {
    expect(kept({ summary: 'true' }).runner.getInput('summary')).toBe('false')
  })

  it('exits 2 for a bad input, 1 for any other failure (a thrown undefined too), 0 when done', () => {
    const { exitCode } = kept()
    expect(exitCode({})).toBe(0)
    const error = new InputError('keep', 'must be a whole number.')
    expect(exitCode({ failed: true, error })).toBe(2)
    expect(exitCode({ failed: true, error: new ActionError('list failed: answered 503.') })).toBe(1)
    expect(exitCode({ failed: true, error: undefined })).toBe(1)
  })
})
