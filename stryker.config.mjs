// Mutation testing (`npm run mutate`): would the unit tests notice a broken rule in the
// modules that guard secrets and decide what is revoked? See docs/MUTATION.md.

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  mutate: [
    'src/shared/secrets.ts',
    'src/shared/text.ts',
    'src/inputs/parsers.ts',
    'src/shared/records.ts',
    'src/shared/timestamp.ts',
    'src/operations/name-pattern.ts',
    'src/operations/cleanup-plan.ts',
    'src/platform/lost-create.ts',
    'src/platform/retry.ts',
    'src/platform/decode.ts',
    'src/post/step.ts',
    'src/shared/token-files.ts',
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
  concurrency: 1,
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
