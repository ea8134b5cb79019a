// token-files: the new files' mode and descriptors, and which paths removeTokenFile takes as its own.
// report/report/files.test.ts and post/step/token-file.test.ts cover them through report and run.
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  newTokenFilePath,
  removeTokenFile,
  writeTokenFile,
  writeTokensFile,
} from '../../../src/shared/token-files.js'

const HEX = '0123456789abcdef0123456789abcdef'
// Modes and umask are POSIX; /proc/self/fd, which lists this process's descriptors, is Linux's.
const onPosix = process.platform === 'win32' ? it.skip : it
const onLinux = process.platform === 'linux' ? it : it.skip

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'token-files-test-'))
})
afterEach(() => {
  rmSync(dir, { recursive: true, force: true })
})

const notOurs = () => `it is not a token file of this action in ${dir}.`

describe('writeTokenFile and writeTokensFile', () => {
  onPosix('make the file 0600 exactly, whatever the umask takes away', () => {
    // 0o277 leaves the owner read alone: open's 0600 alone would give 0400.
    const umask = process.umask(0o277)
    try {
      const path = newTokenFilePath(dir)
      writeTokenFile(path, 'eyJ.value')
      const list = writeTokensFile(dir, '[]')
      expect(statSync(path).mode & 0o777).toBe(0o600)
      expect(statSync(list).mode & 0o777).toBe(0o600)
      expect(readFileSync(path, 'utf8')).toBe('eyJ.value')
    } finally {
      process.umask(umask)
    }
  })

  onLinux('close every descriptor they open, when the write fails too', () => {
    const open = () => readdirSync('/proc/self/fd').length
    const before = open()
    for (let i = 0; i < 5; i++) {
      writeTokenFile(newTokenFilePath(dir), `value-${i}`)
      writeTokensFile(dir, '[]')
    }
    // Opened, then not written: a value that is not text makes the write throw.
    const path = newTokenFilePath(dir)
    expect(() => {
      writeTokenFile(path, 42 as unknown as string)
    }).toThrow(/^The "data" argument must be of type string/)
    expect(existsSync(path)).toBe(true)
    expect(open()).toBe(before)
  })

  it('refuse a path that exists already, leaving it as it was', () => {
    const path = newTokenFilePath(dir)
    writeFileSync(path, 'there first')
    expect(() => {
      writeTokenFile(path, 'eyJ.value')
    }).toThrow(/^EEXIST: /)
    expect(readFileSync(path, 'utf8')).toBe('there first')
  })
})

describe('removeTokenFile', () => {
  const planted = (name: string) => {
    const path = join(dir, name)
    writeFileSync(path, 'x')
    return path
  }

  it('deletes a file named gateway-token- and 32 hex digits, in dir', () => {
    const path = planted(`gateway-token-${HEX}`)
    expect(removeTokenFile(path, dir)).toBe(true)
    expect(existsSync(path)).toBe(false)
    expect(removeTokenFile(path, dir)).toBe(false)
  })

  it.each([
    ['before the name', `x-gateway-token-${HEX}`],
    ['after the digits', `gateway-token-${HEX}0`],
    ['after the digits, not hex', `gateway-token-${HEX}.bak`],
  ])('refuses a name with more %s, and leaves the file', (_, name) => {
    const path = planted(name)
    expect(() => removeTokenFile(path, dir)).toThrow(new Error(notOurs()))
    expect(existsSync(path)).toBe(true)
  })

  it('refuses a path that is not written the way newTokenFilePath writes it', () => {
    const path = planted(`gateway-token-${HEX}`)
    const sub = join(dir, 'sub')
    for (const other of [
      // A trailing slash: resolve() drops it, and lstat would follow the name as a folder.
      `${path}/`,
      `${sub}/../gateway-token-${HEX}`,
      `${dir}/./gateway-token-${HEX}`,
      `gateway-token-${HEX}`,
    ]) {
      expect(() => removeTokenFile(other, dir)).toThrow(new Error(notOurs()))
    }
    expect(existsSync(path)).toBe(true)
    // Nothing there: still refused, not taken as gone already.
    const absent = `${join(dir, `gateway-token-${'f'.repeat(32)}`)}/`
    expect(() => removeTokenFile(absent, dir)).toThrow(new Error(notOurs()))
  })
})
