// @ts-check
/**
 * The mutation score of each module Stryker mutated, from its JSON report, as a
 * Markdown table (docs/MUTATION.md keeps the last one). Stryker's own threshold is on
 * the whole; this holds every module to it: one module under `--min` exits 1.
 *
 * `node scripts/mutation-scores.mjs [--min 90] [--config stryker.config.mjs] [report.json]`
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

/** Mutant states that count, as Stryker counts them: detected, or not. */
const DETECTED = new Set(['Killed', 'Timeout'])
const UNDETECTED = new Set(['Survived', 'NoCoverage'])

/**
 * Per file: mutants detected, survived (with no coverage), and the score in percent.
 * @param {{ files: Record<string, { mutants: { status: string }[] }> }} report
 */
export function scores(report) {
  return Object.entries(report.files)
    .map(([file, { mutants }]) => {
      const detected = mutants.filter((m) => DETECTED.has(m.status)).length
      const undetected = mutants.filter((m) => UNDETECTED.has(m.status)).length
      const valid = detected + undetected
      return {
        file: file.replace(/^.*?src\//, 'src/'),
        detected,
        undetected,
        score: valid === 0 ? 100 : (100 * detected) / valid,
      }
    })
    .sort((a, b) => a.file.localeCompare(b.file))
}

/** @param {ReturnType<typeof scores>} rows */
export function table(rows) {
  const lines = ['| Module | Score | Detected | Survived |', '| --- | ---: | ---: | ---: |']
  for (const { file, score, detected, undetected } of rows)
    lines.push(`| ${file} | ${score.toFixed(1)}% | ${detected} | ${undetected} |`)
  return lines.join('\n')
}

/**
 * The modules the config says to mutate that the report has no row for: a file renamed or
 * moved, which Stryker only warns about, would otherwise leave the gate with nothing to hold.
 * @param {ReturnType<typeof scores>} rows
 * @param {readonly string[]} mutate
 */
export function missing(rows, mutate) {
  return mutate.filter((module) => !rows.some((row) => row.file === module))
}

/** `--min`'s value, a percentage; anything else is refused rather than read as no gate. */
function readMin(/** @type {string[]} */ args) {
  const at = args.indexOf('--min')
  if (at < 0) return 90
  const min = Number(args[at + 1])
  if (!Number.isFinite(min) || min < 0 || min > 100) {
    throw new Error(
      `--min must be a percentage from 0 to 100; got ${JSON.stringify(args[at + 1] ?? '')}.`,
    )
  }
  return min
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2)
  const valueOf = (/** @type {string} */ flag) => {
    const at = args.indexOf(flag)
    return at < 0 ? undefined : args[at + 1]
  }
  const min = readMin(args)
  const file = args.find(
    (arg, i) => !arg.startsWith('--') && !/^--(min|config)$/.test(args[i - 1] ?? ''),
  )
  const rows = scores(JSON.parse(readFileSync(file ?? 'reports/mutation/mutation.json', 'utf8')))
  const config = resolve(valueOf('--config') ?? 'stryker.config.mjs')
  /** @type {{ default: { mutate: string[] } }} */
  const { default: stryker } = await import(pathToFileURL(config).href)
  console.log(table(rows))
  const absent = missing(rows, stryker.mutate)
  if (absent.length > 0) {
    console.error(`No mutants reported for: ${absent.join(', ')}`)
    process.exitCode = 1
  }
  const low = rows.filter((row) => row.score < min)
  if (low.length > 0) {
    console.error(`Under ${min}%: ${low.map((row) => row.file).join(', ')}`)
    process.exitCode = 1
  }
}
