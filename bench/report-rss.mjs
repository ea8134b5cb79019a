// Loaded with `node --import` before the action, to report its peak memory: writes
// the process's maximum resident set size, in KiB, to RSS_REPORT when it exits.
import { writeFileSync } from 'node:fs'

process.on('exit', () => {
  if (process.env.RSS_REPORT)
    writeFileSync(process.env.RSS_REPORT, String(process.resourceUsage().maxRSS))
})
