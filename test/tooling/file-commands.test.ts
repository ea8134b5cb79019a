// The end-to-end tests' reading of the runner's file commands: what actions/runner accepts, and what it refuses.
import { afterEach, describe, expect, it } from '@jest/globals'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  parseCommandFile,
  parseKeyValueFile,
  parsePathFile,
  readRunnerFile,
} from '../support/file-commands.mjs'

describe('parseKeyValueFile (EnvFileKeyValuePairs)', () => {
  it('reads NAME=value lines and NAME<<DELIMITER heredocs, whichever marker comes first', () => {
    expect(parseKeyValueFile('a=1\nb<<EOF\nline 1\nline=2\nEOF\nc=x<<y\nd<<e=f\nv\ne=f\n')).toEqual(
      [
        ['a', '1'],
        ['b', 'line 1\nline=2'],
        ['c', 'x<<y'],
        ['d', 'v'],
      ],
    )
  })

  it('ends lines at \\n only, as on Linux: a \\r before it stays in the value', () => {
    expect(parseCommandFile('a=x\r\nb<<EOF\r\nv\r\nEOF\r\n')).toEqual({ a: 'x\r', b: 'v\r' })
    // The delimiter line is `EOF\r` there: it ends only at a line equal to it.
    expect(() => parseCommandFile('b<<EOF\r\nv\nEOF\n')).toThrow(
      "Invalid value. Matching delimiter not found 'EOF\r'",
    )
  })

  it('takes the last value of a name set twice, and an empty value', () => {
    expect(parseCommandFile('a=1\na=2\nb=\nc<<E\nE\n')).toEqual({ a: '2', b: '', c: '' })
  })

  it('refuses a line that is neither form, as the runner does', () => {
    expect(() => parseKeyValueFile('just text\n')).toThrow("Invalid format 'just text'")
  })

  it('refuses a heredoc without a name or a delimiter', () => {
    expect(() => parseKeyValueFile('<<EOF\nv\nEOF\n')).toThrow('Name must not be empty')
    expect(() => parseKeyValueFile('a<<\nv\n\n')).toThrow('delimiter must not be empty')
  })

  it('refuses a heredoc whose delimiter never comes, or whose last line has no newline', () => {
    expect(() => parseKeyValueFile('a<<EOF\nv\n')).toThrow("Matching delimiter not found 'EOF'")
    expect(() => parseKeyValueFile('a<<EOF\nv')).toThrow(
      'Invalid value. EOF marker missing new line.',
    )
    // The closing line itself needs no newline.
    expect(parseKeyValueFile('a<<EOF\nv\nEOF')).toEqual([['a', 'v']])
  })

  it('passes `=value` with an empty name, as the runner does; a record of it is refused', () => {
    expect(parseKeyValueFile('=value\n')).toEqual([['', 'value']])
    expect(() => parseCommandFile('=value\n')).toThrow('a name must not be empty')
  })
})

describe('readRunnerFile (File.ReadAllText)', () => {
  let dir: string
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true })
  })
  const file = (bytes: Buffer) => {
    dir = mkdtempSync(join(tmpdir(), 'file-commands-'))
    const path = join(dir, 'set_output_x')
    writeFileSync(path, bytes)
    return path
  }

  it('drops a UTF-8 byte-order mark, and reads UTF-16 by its mark, either way round', () => {
    expect(readRunnerFile(file(Buffer.from('\ufeffa=1\n', 'utf8')))).toBe('a=1\n')
    expect(
      readRunnerFile(
        file(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a=é\n', 'utf16le')])),
      ),
    ).toBe('a=é\n')
    const be = Buffer.from('a=2\n', 'utf16le')
    be.swap16()
    expect(readRunnerFile(file(Buffer.concat([Buffer.from([0xfe, 0xff]), be])))).toBe('a=2\n')
  })

  it('reads a file that is not there as empty (the runner only says so in debug)', () => {
    dir = mkdtempSync(join(tmpdir(), 'file-commands-'))
    expect(readRunnerFile(join(dir, 'gone'))).toBe('')
  })
})

describe('parsePathFile (GITHUB_PATH)', () => {
  it('takes each non-empty line, however it ends', () => {
    expect(parsePathFile('/a\n\n/b\r\n/c\r')).toEqual(['/a', '/b', '/c'])
  })
})
