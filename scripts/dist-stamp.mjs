// @ts-check
/**
 * The stamp that ties dist/ to the sources it was built from: `npm run package` writes
 * `dist/source-hash.txt`, a SHA-256 over src/**\/*.ts, package.json (the version), package-lock.json and
 * tsconfig.json (each file's path and bytes, in sorted order). The end-to-end tests run
 * dist/, so their global setup checks the stamp and stops when the sources changed
 * since the last build. The stamp holds no time and no absolute path: the same sources
 * give the same stamp anywhere, so CI's "dist/ is fresh" check stays meaningful.
 *
 * `node scripts/dist-stamp.mjs write` writes the stamp; `... check` exits 1 with the
 * message when it is stale.
 */
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

export const STAMP = 'dist/source-hash.txt'

/**
 * The files the bundle is built from, relative to root with `/`, sorted.
 * @param {string} root
 */
export function sourceFiles(root) {
  /** @type {string[]} */
  const files = []
  /** @param {string} dir relative to root, with `/` */
  const walk = (dir) => {
    for (const entry of readdirSync(join(root, dir), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`
      if (entry.isDirectory()) walk(path)
      else if (entry.isFile() && entry.name.endsWith('.ts')) files.push(path)
    }
  }
  walk('src')
  // Code-unit order, whatever the locale.
  return [...files, 'package.json', 'package-lock.json', 'tsconfig.json'].sort((a, b) =>
    a < b ? -1 : a > b ? 1 : 0,
  )
}

/**
 * SHA-256 (hex) over each source file's path, length and contents, in sorted order.
 * @param {string} root
 */
export function sourceHash(root) {
  const hash = createHash('sha256')
  for (const file of sourceFiles(root)) {
    const content = readFileSync(join(root, file))
    hash.update(`${file}\0${content.length}\0`).update(content)
  }
  return hash.digest('hex')
}

/**
 * Writes the stamp of the current sources into dist/.
 * @param {string} root
 */
export function writeStamp(root) {
  writeFileSync(join(root, STAMP), `${sourceHash(root)}\n`)
}

/**
 * Undefined when dist/ carries the stamp of the current sources, else what is wrong.
 * @param {string} root
 * @returns {string | undefined}
 */
export function checkStamp(root) {
  const fix =
    'The end-to-end tests would run a stale bundle: run npm run package ' +
    '(npm test and npm run test:e2e do it first).'
  let stamp
  try {
    stamp = readFileSync(join(root, STAMP), 'utf8').trim()
  } catch {
    return `dist/ was built from other sources than src/, or not by npm run package: ${STAMP} is missing. ${fix}`
  }
  const current = sourceHash(root)
  if (stamp === current) return undefined
  return (
    `dist/ was built from other sources than src/ (${STAMP} holds ${stamp.slice(0, 12)}, ` +
    `the current sources hash to ${current.slice(0, 12)}). ${fix}`
  )
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const root = process.cwd()
  const command = process.argv[2]
  if (command === 'write') writeStamp(root)
  else if (command === 'check') {
    const problem = checkStamp(root)
    if (problem !== undefined) {
      console.error(problem)
      process.exitCode = 1
    }
  } else {
    console.error('usage: node scripts/dist-stamp.mjs write|check')
    process.exitCode = 2
  }
}
