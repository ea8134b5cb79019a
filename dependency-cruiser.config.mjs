// @ts-check
// The layering of src/ (CONTRIBUTING.md, Layout), checked by `npm run lint`: each rule
// names what it keeps out. test/tooling/architecture.test.ts breaks each one on purpose.

/** Folders of src/, from the top (the steps) down to shared/, which imports none of them. */
/** @param {string[]} folders */
const upper = (...folders) => `^src/(${folders.join('|')})/`

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'An import circle: neither module can be read, or tested, without the other.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'only-the-runner-seam-talks-to-the-runner',
      severity: 'error',
      comment:
        'Only src/runner/github-runner.ts imports @actions/core: everything else gets a Runner.',
      from: { path: '^src/', pathNot: '^src/runner/github-runner\\.ts$' },
      to: { path: '(^|/)node_modules/@actions/core/' },
    },
    {
      name: 'only-the-transport-sends',
      severity: 'error',
      comment:
        'Only src/platform/http.ts imports @actions/http-client: one transport sends every request.',
      from: { path: '^src/', pathNot: '^src/platform/http\\.ts$' },
      to: { path: '(^|/)node_modules/@actions/http-client/' },
    },
    {
      name: 'shared-imports-no-layer',
      severity: 'error',
      comment: 'shared/ is what every layer uses: it imports none of them.',
      from: { path: '^src/shared/' },
      to: { path: '^src/', pathNot: '^src/shared/' },
    },
    {
      name: 'inputs-only-read',
      severity: 'error',
      comment:
        'inputs/ reads and checks: it knows nothing of the platform, the operations or the runner.',
      from: { path: '^src/inputs/' },
      to: { path: upper('runner', 'platform', 'operations', 'report', 'post') },
    },
    {
      name: 'platform-knows-no-operation',
      severity: 'error',
      comment:
        'platform/ is HTTP and the API: it serves the operations, and imports nothing above it.',
      from: { path: '^src/platform/' },
      to: { path: upper('runner', 'inputs', 'operations', 'report', 'post') },
    },
    {
      name: 'operations-return-plain-results',
      severity: 'error',
      comment:
        'An operation returns a plain result: it never talks to the runner, reports, or runs the post step.',
      from: { path: '^src/operations/' },
      to: { path: upper('runner', 'report', 'post') },
    },
    {
      name: 'report-only-writes',
      severity: 'error',
      comment:
        'report/ writes a result to the runner: it sends no request and does not run the post step.',
      from: { path: '^src/report/' },
      to: { path: `${upper('platform')}|^src/post/step\\.ts$` },
    },
    {
      name: 'nothing-imports-a-step',
      severity: 'error',
      comment:
        'The entry points start things, and main.ts is the main step: only index.ts and the command line (cli/) import it.',
      from: { path: '^src/', pathNot: '^src/(index\\.ts$|cli/)' },
      to: { path: '^src/(main|index|post|cli)\\.ts$' },
    },
    {
      name: 'the-command-line-never-reaches-the-github-runner',
      severity: 'error',
      comment:
        'gateway-token runs where no GitHub runner is: nothing it imports reaches @actions/core, whose fallback prints outputs and masks on stdout.',
      from: { path: '^src/cli(\\.ts$|/)' },
      to: { path: '(^|/)node_modules/@actions/core/', reachable: true },
    },
    {
      name: 'the-entry-points-only-start',
      severity: 'error',
      comment:
        'index.ts starts main.ts, post.ts the post step, on the GitHub runner; cli.ts the command line: nothing else.',
      from: { path: '^src/(index|post|cli)\\.ts$' },
      to: {
        path: '^src/',
        pathNot: '^src/(main\\.ts|post/step\\.ts|runner/github-runner\\.ts|cli/command-line\\.ts)$',
      },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
}
