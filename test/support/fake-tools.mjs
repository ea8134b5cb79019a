// @ts-check
/**
 * Fake deploy tools on PATH for the example runs: helm, kubectl, docker and nomad (and the
 * commands the examples install them with, npm, which runs a pull request's tests, and gh,
 * which names closed pull requests),
 * each a small wrapper around fake-tool.mjs, which records how it was called.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const FAKE_TOOL = resolve(fileURLToPath(import.meta.url), '../fake-tool.mjs')

/** The tools a deploy runs, and the ones an example installs them with. */
const TOOLS = [
  'helm',
  'kubectl',
  'docker',
  'nomad',
  'sudo',
  'apt-get',
  'curl',
  'gpg',
  'lsb_release',
  'wget',
  'npm',
  'gh',
]

/**
 * @typedef {object} ToolCall
 * @property {string} tool
 * @property {string[]} args
 * @property {Record<string, string>} files the files its arguments name, and what they held
 * @property {Record<string, string | undefined>} env the variables it passed on by name, or
 *   reads itself (nomad: NOMAD_ADDR, NOMAD_TOKEN)
 * @property {string} stdin what it read on stdin, when told to (`--filename=-`) or as tee
 *   and gpg --dearmor do
 * @property {string} cwd
 */

/**
 * Puts the fake tools into `<dir>/bin`.
 * @param {string} dir
 * @returns {{ bin: string, env: Record<string, string>, calls: () => ToolCall[] }} the
 *   directory to put first on PATH, the variables the tools need, and what they recorded
 */
export function installFakeTools(dir) {
  const bin = join(dir, 'bin')
  mkdirSync(bin, { recursive: true })
  const log = join(dir, 'tool-calls.jsonl')
  writeFileSync(log, '')
  for (const tool of TOOLS) {
    const wrapper = join(bin, tool)
    writeFileSync(
      wrapper,
      `#!/bin/sh\nexec ${quote(process.execPath)} ${quote(FAKE_TOOL)} ${tool} "$@"\n`,
    )
    chmodSync(wrapper, 0o755)
  }
  return {
    bin,
    env: { FAKE_TOOLS_LOG: log },
    calls: () =>
      existsSync(log)
        ? readFileSync(log, 'utf8')
            .split('\n')
            .filter((line) => line !== '')
            .map((line) => /** @type {ToolCall} */ (JSON.parse(line)))
        : [],
  }
}

/** @param {string} text */
function quote(text) {
  return `'${text.replace(/'/g, `'\\''`)}'`
}
