// The post step's entry point (revokeOnExit): it only starts it.
import { runPost } from './revoke-on-exit.js'

await runPost()
