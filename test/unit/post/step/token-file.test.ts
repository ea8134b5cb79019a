// run and the token file (writeTokenFile): deleted first, and only a file this action made.
import { describe, expect, it } from '@jest/globals'
import { existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { run as runPost } from '../../../../src/post/step.js'
import { FakeClock } from '../../../fixtures/clock.js'
import { authOk, TOKEN_ID, useNock, revokeOk } from '../../../fixtures/nock-platform.js'
import { noteCreate, noteTokenFile, POST_INPUTS as INPUTS } from '../../../fixtures/post-state.js'
import { useTrackedRunners } from '../../../fixtures/runner.js'

useNock()

const recordingRunner = useTrackedRunners()

describe('run: the token file (writeTokenFile)', () => {
  /** A runner whose state names a token file written in its temp dir. */
  function withTokenFile(inputs: Record<string, string> = {}) {
    const runner = recordingRunner(inputs)
    const path = join(runner.tempDir(), 'gateway-token-0123456789abcdef0123456789abcdef')
    noteTokenFile(runner, path)
    writeFileSync(path, 'eyJ.gateway.value', { mode: 0o600 })
    return { runner, path }
  }

  it('deletes it and says so, with no token to revoke and no request', async () => {
    const { runner, path } = withTokenFile()
    await runPost(runner, new FakeClock(Date.now()))
    expect(existsSync(path)).toBe(false)
    expect(runner.lines).toEqual([`info: Deleted the token file ${path}.`])
    // Nothing masked: no secret was read, and nothing was sent.
    expect(runner.masked).toEqual([])
  })

  it('only notes it in debug when the file is gone already', async () => {
    const { runner, path } = withTokenFile()
    await runPost(runner, new FakeClock(Date.now()))
    runner.lines = []
    await runPost(runner, new FakeClock(Date.now()))
    expect(runner.lines).toEqual([`debug: The token file ${path} was gone already.`])
    expect(runner.failures).toEqual([])
  })

  it('deletes it first, then revokes the token', async () => {
    const { runner, path } = withTokenFile(INPUTS)
    noteCreate(runner, { name: 'ephemeral', id: TOKEN_ID })
    authOk()
    revokeOk()
    await runPost(runner, new FakeClock(Date.now()))
    expect(runner.lines.filter((line) => line.startsWith('info:'))).toEqual([
      `info: Deleted the token file ${path}.`,
      `info: Revoked gateway token 'ephemeral' (${TOKEN_ID}) at the end of the job (revokeOnExit).`,
    ])
  })

  it('deletes nothing it did not make: another name, another folder, a link, a folder', async () => {
    const runner = recordingRunner()
    const dir = runner.tempDir()
    const other = join(dir, 'keep-me')
    writeFileSync(other, 'x')
    mkdirSync(join(dir, 'sub'))
    const elsewhere = join(dir, 'sub', 'gateway-token-0123456789abcdef0123456789abcdef')
    writeFileSync(elsewhere, 'x')
    const link = join(dir, 'gateway-token-11111111111111111111111111111111')
    symlinkSync(other, link)
    const folder = join(dir, 'gateway-token-22222222222222222222222222222222')
    mkdirSync(folder)
    const relative = 'gateway-token-0123456789abcdef0123456789abcdef'
    for (const path of [other, elsewhere, `${dir}/sub/../keep-me`, relative, link, folder]) {
      runner.lines = []
      noteTokenFile(runner, path)
      await runPost(runner, new FakeClock(Date.now()))
      expect(runner.lines).toEqual([
        expect.stringMatching(
          /^warning: Did not delete the token file .*: it is (not a token file of this action in .*|no longer a plain file)\.$/,
        ),
      ])
    }
    for (const path of [other, elsewhere, link, folder]) expect(existsSync(path)).toBe(true)
  })
})
