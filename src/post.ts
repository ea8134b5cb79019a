// The post step's entry point (revokeOnExit): it only starts it.
import { githubRunner } from './runner/github-runner.js'
import { runPost } from './post/step.js'

await runPost(githubRunner)
