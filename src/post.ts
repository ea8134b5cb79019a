// The post step's entry point (revokeOnExit): it only starts it (all logic is in post/step.ts).
import { githubRunner } from './runner/github-runner.js'
import { run } from './post/step.js'

await run(githubRunner)
