// report's files: the token value (writeTokenFile, output tokenFile) and the records (tokensFile).
import { describe, expect, it } from '@jest/globals'
import { existsSync, readFileSync, statSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { ActionError } from '../../../../src/shared/errors.js'
import type { TokenRecord } from '../../../../src/shared/records.js'
import { MAX_OUTPUT_BYTES, report } from '../../../../src/report/report.js'
import {
  cleanedUp,
  cleanupTask,
  created,
  createTask,
  done,
  listed,
  reportOptions,
} from '../../../fixtures/done.js'
import { useTrackedRunners } from '../../../fixtures/runner.js'
import { token } from '../../../fixtures/token-api.js'

const recordingRunner = useTrackedRunners()

describe('report: writeTokenFile (output tokenFile)', () => {
  const result = created(token('id-1', 'ci-deploy', 0))
  /** The create, with writeTokenFile: true. */
  const withFile = done(result, createTask({ writeTokenFile: true }))

  it('writes exactly the value to a new 0600 file under the temp dir, and outputs its path', async () => {
    const runner = recordingRunner()
    await report(withFile, reportOptions(runner, true), runner)
    const path = runner.outputs.tokenFile ?? ''
    expect(dirname(path)).toBe(runner.tempDir())
    expect(basename(path)).toMatch(/^gateway-token-[0-9a-f]{32}$/)
    expect(readFileSync(path, 'utf8')).toBe('value-id-1')
    if (process.platform !== 'win32') expect(statSync(path).mode & 0o777).toBe(0o600)
    expect(runner.state).toEqual({ tokenFile: path })
    expect(runner.lines.join('\n') + runner.summaries.join('')).not.toContain('value-id-1')
  })

  it('saves the path for the post step before the file exists', async () => {
    const runner = recordingRunner()
    const existed: boolean[] = []
    runner.saveState = (name, value) => {
      runner.state[name] = value
      existed.push(existsSync(value))
    }
    await report(withFile, reportOptions(runner), runner)
    expect(existed).toEqual([false])
    expect(existsSync(runner.state.tokenFile ?? '')).toBe(true)
  })

  it('hands the path to postState once, before the file exists; no other state is written', async () => {
    const runner = recordingRunner()
    const told: [string, boolean][] = []
    const postState = {
      tokenFile: (path: string) => {
        told.push([path, existsSync(path)])
      },
    }
    await report(withFile, { summary: false, postState }, runner)
    expect(told).toEqual([[runner.outputs.tokenFile, false]])
    expect(runner.state).toEqual({})
  })

  it('gives each step a file of its own', async () => {
    const runner = recordingRunner()
    await report(withFile, reportOptions(runner), runner)
    const first = runner.outputs.tokenFile
    await report(withFile, reportOptions(runner), runner)
    expect(runner.outputs.tokenFile).not.toBe(first)
  })

  it('writes no file, and sets tokenFile empty, without writeTokenFile', async () => {
    const runner = recordingRunner()
    await report(done(result), reportOptions(runner), runner)
    expect(runner.outputs.tokenFile).toBe('')
    expect(runner.state).toEqual({})
    expect(runner.temp).toBeUndefined()
  })

  it('fails naming the path when the file cannot be written, the path saved all the same', async () => {
    const runner = recordingRunner()
    const missing = join(runner.tempDir(), 'no-such-dir')
    runner.tempDir = () => missing
    const failure = await report(withFile, reportOptions(runner), runner).then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(failure).toBeInstanceOf(ActionError)
    const path = runner.state.tokenFile ?? ''
    expect(dirname(path)).toBe(missing)
    expect((failure as Error).message).toMatch(
      new RegExp(
        `^could not write the token value to ${path} \\(writeTokenFile\\): ENOENT: [^]*\\.$`,
      ),
    )
    expect(runner.outputs).not.toHaveProperty('tokenFile')
  })
})

describe('report: tokensFile, and tokens over 1 MiB', () => {
  const list = (tokens: TokenRecord[]) => done(listed(tokens))

  it('writes the same JSON as tokens to a file under the temp dir', async () => {
    const runner = recordingRunner()
    await report(list([token('a', 'x', 1), token('b', 'y', 2)]), reportOptions(runner), runner)
    const path = runner.outputs.tokensFile ?? ''
    expect(dirname(path)).toBe(runner.tempDir())
    expect(basename(path)).toMatch(/^gateway-tokens-[0-9a-f]{32}\.json$/)
    expect(readFileSync(path, 'utf8')).toBe(runner.outputs.tokens)
    expect(runner.outputs.count).toBe('2')
    expect(runner.lines.filter((line) => line.startsWith('warning:'))).toEqual([])
  })

  it('leaves tokens empty (not [], which reads as no tokens) with a warning when its JSON is over 1 MiB; the file has it all', async () => {
    const runner = recordingRunner()
    const tokens = Array.from({ length: 12_000 }, (_, i) =>
      token(`id-${i}`, `mediator-gateway-eu-${i}`, i / 1000),
    )
    await report(list(tokens), reportOptions(runner), runner)
    const path = runner.outputs.tokensFile ?? ''
    const file = readFileSync(path, 'utf8')
    const bytes = Buffer.byteLength(file)
    expect(bytes).toBeGreaterThan(MAX_OUTPUT_BYTES)
    expect(runner.outputs.tokens).toBe('')
    expect(runner.outputs.count).toBe('12000')
    // The words: test/unit/report/report/golden-messages.test.ts.
    const [warning, ...more] = runner.lines.filter((line) => line.startsWith('warning:'))
    expect(more).toEqual([])
    expect(warning).toContain(`The tokens output would be ${bytes} bytes`)
    expect(warning).toContain('it is left empty')
    expect(warning).toContain(`read tokensFile (${path})`)
    const records = JSON.parse(file) as { id: string }[]
    expect(records.map((record) => record.id)).toEqual(tokens.map((t) => t.id))
    expect(file).not.toContain('tokenValue')
  })

  it('keeps tokens when its JSON is exactly 1 MiB', async () => {
    const runner = recordingRunner()
    const bare = (name: string): TokenRecord => ({ id: 'i', name, state: 'active' })
    const overhead = Buffer.byteLength(JSON.stringify([bare('')]))
    await report(
      list([bare('n'.repeat(MAX_OUTPUT_BYTES - overhead))]),
      reportOptions(runner),
      runner,
    )
    expect(Buffer.byteLength(runner.outputs.tokens ?? '')).toBe(MAX_OUTPUT_BYTES)
  })

  it('builds the JSON once, for both the file and the output', async () => {
    const runner = recordingRunner()
    // JSON.stringify looks up toJSON on each record it writes, and nothing else does.
    let serialized = 0
    const tokens = [token('a', 'x', 1), token('b', 'y', 2)].map((record) =>
      Object.defineProperty({ ...record }, 'toJSON', {
        get: () => {
          serialized++
          return undefined
        },
      }),
    )
    await report(list(tokens), reportOptions(runner, true), runner)
    expect(serialized).toBe(tokens.length)
    expect(readFileSync(runner.outputs.tokensFile ?? '', 'utf8')).toBe(runner.outputs.tokens)
  })

  it('cleanup: writes the revoked records to tokensFile', async () => {
    const runner = recordingRunner()
    const revoked = [token('a', 'ci-a', 40, { state: 'revoked', tokenValue: undefined })]
    await report(
      done(cleanedUp({ revoked }), cleanupTask({ olderThan: undefined })),
      reportOptions(runner),
      runner,
    )
    expect(readFileSync(runner.outputs.tokensFile ?? '', 'utf8')).toBe(runner.outputs.tokens)
  })
})
