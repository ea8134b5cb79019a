// The jest config Stryker runs: the unit project, flat (Stryker cannot pick a project).
// `roots` covers src/ and test/ so that --findRelatedTests follows imports through
// test/fixtures to the tests of each mutated file; the tests are those of test/unit,
// test/simulation (the pool's rules are held by its properties more than by unit tests) and
// test/tooling (some of the tooling's tests import src/ too: they count as they did before).
import { unitProject } from './jest.config.js'

/** @type {import('jest').Config} */
export default {
  ...unitProject,
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testMatch: ['<rootDir>/test/{unit,simulation,tooling}/**/*.test.ts'],
}
