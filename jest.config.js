// Jest runs in ESM mode: @actions/core 3 and @actions/http-client 4 are ESM-only.
// ts-jest only transpiles (isolatedModules); `npm run typecheck` does the type checking.
/** @type {import('jest').Config} */
export default {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  extensionsToTreatAsEsm: ['.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, isolatedModules: true }] },
  collectCoverageFrom: ['src/**/*.ts'],
  // The end-to-end tests start real processes; a stuck one must fail, not hang CI.
  testTimeout: 30_000,
}
