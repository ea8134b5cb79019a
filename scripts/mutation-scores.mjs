// @ts-check
/**
 * The mutation score of each module Stryker mutated, from its JSON report, as a
 * Markdown table (docs/MUTATION.md keeps the last one). Stryker's own threshold is on
 * the whole; this holds every module to it: one module under `--min` exits 1.
 *
 * `node scripts/mutation-scores.mjs [--min 90] [report.json]`
 */
import { readFileSync } from 'node:fs'
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

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2)
  const at = args.indexOf('--min')
  const min = at >= 0 ? Number(args[at + 1]) : 90
  const file = args.find((arg, i) => !arg.startsWith('--') && args[i - 1] !== '--min')
  const rows = scores(JSON.parse(readFileSync(file ?? 'reports/mutation/mutation.json', 'utf8')))
  console.log(table(rows))
  const low = rows.filter((row) => row.score < min)
  if (low.length > 0) {
    console.error(`Under ${min}%: ${low.map((row) => row.file).join(', ')}`)
    process.exitCode = 1
  }
}
