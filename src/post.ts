// The post step's entry point (revokeOnExit): it only starts it (all logic is in post/step.ts; run() uses the GitHub runner unless given another).
import { run } from './post/step.js'

await run()
