// The post step's entry point (revokeOnExit): on the GitHub runner it starts the post step (post/step.ts); where no runner is it refuses, in one line.
import { run as post } from './post/step.js'
import { githubRunner, startStep } from './runner/github-runner.js'

/** The post step on the GitHub runner: what the bundle starts, and `npm run local-action` calls. */
export const run = () => post(githubRunner)

await startStep(import.meta.url, run)
