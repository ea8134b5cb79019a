// Mutation testing (`npm run mutate`): would the unit tests notice a broken rule in the
// modules that guard secrets, decide what is revoked, and what is printed or handed on?
// See docs/MUTATION.md.

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: [
    // Secrets, text from outside, inputs, records and dates.
    'src/shared/secrets.ts',
    'src/shared/text.ts',
    'src/shared/records.ts',
    'src/shared/time.ts',
    'src/shared/token-files.ts',
    'src/inputs/parsers.ts',
    'src/inputs/unknown-inputs.ts',
    // What is revoked, and at what pace.
    'src/operations/cleanup-plan.ts',
    'src/operations/cleanup.ts',
    'src/operations/pool.ts',
    'src/operations/learnt.ts',
    'src/operations/audit.ts',
    // The client: requests, retries, answers, a create's life and its lost token.
    'src/platform/call-loop.ts',
    'src/platform/client.ts',
    'src/platform/failures.ts',
    'src/platform/http.ts',
    'src/platform/api.ts',
    'src/platform/create-life.ts',
    // The post step.
    'src/post/step.ts',
    // What is printed and handed on.
    'src/report/report.ts',
    'src/report/summary.ts',
    'src/report/markdown.ts',
    'src/report/wording.ts',
    // The command line: what it refuses, prints on stdout and says on stderr. Not exec.ts, whose
    // tests run a process for each COMMAND: the end-to-end tests check it, signals and all.
    'src/cli/args.ts',
    'src/cli/command-line.ts',
    'src/cli/terminal.ts',
  ],
  testRunner: 'jest',
  testRunnerNodeArgs: ['--experimental-vm-modules'],
  jest: {
    projectType: 'custom',
    configFile: 'stryker.jest.config.js',
    enableFindRelatedTests: true,
  },
  checkers: ['typescript'],
  tsconfigFile: 'tsconfig.json',
  coverageAnalysis: 'perTest',
  // One mutant at a time on a machine in use; on CI, where the runner is its own, two.
  concurrency: process.env.CI ? 2 : 1,
  timeoutMS: 10_000,
  // Jest in ESM mode keeps memory from run to run: a fresh runner now and then.
  maxTestRunnerReuse: 25,
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
  reporters: ['clear-text', 'progress', 'json', 'html'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  // Every module above is held to 90%: a lower score fails the run.
  thresholds: { high: 95, low: 90, break: 90 },
}
