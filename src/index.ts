// The main step's entry point: it only starts the action (all logic is in main.ts; run() uses the GitHub runner unless given another).
import { run } from './main.js'

await run()
