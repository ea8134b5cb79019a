#!/usr/bin/env node
// The command line's entry point (`gateway-token`, the package's bin): it only starts it (all logic is in cli/command-line.ts).
import { commandLine } from './cli/command-line.js'

process.exitCode = await commandLine(process.argv.slice(2))
