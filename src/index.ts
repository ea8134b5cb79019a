// The main step's entry point: it only starts the action (all logic is in main.ts).
import { githubRunner } from './runner/github-runner.js'
import { run } from './main.js'

await run(githubRunner)
