// The main step's entry point: on the GitHub runner it starts the main step (main.ts); where no runner is it refuses, in one line.
import { run as main } from './main.js'
import { githubRunner, startStep } from './runner/github-runner.js'

/** The main step on the GitHub runner: what the bundle starts, and `npm run local-action` calls. */
export const run = () => main(githubRunner)

await startStep(import.meta.url, run)
