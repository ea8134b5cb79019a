// What both steps start with: secrets masked through the runner, the step's budget, a cancel that reports, the client.
import type { Connection } from '../inputs/task.js'
import { PlatformClient } from '../platform/client.js'
import type { Transport } from '../platform/http.js'
import type { Clock } from '../shared/time.js'
import { Deadline } from '../shared/time.js'
import { Secrets } from '../shared/secrets.js'
import { stopOnCancel } from './cancel.js'
import type { Runner } from './runner.js'

/** Secrets that the runner masks the moment each one is known. */
export function maskedSecrets(runner: Runner): Secrets {
  return new Secrets((value) => {
    runner.setSecret(value)
  })
}

export interface Connected {
  client: PlatformClient
  deadline: Deadline
  /** Once the step's work is done: stops listening for a cancel, closes the connections. */
  close: () => void
}

/**
 * The client, under the step's budget (totalTimeout, from now: reading the inputs took
 * no time worth counting), with a cancel that ends the step with a report of what it did.
 */
export function connect(
  runner: Runner,
  connection: Connection,
  secrets: Secrets,
  clock: Clock,
  { transport, limit }: { transport?: Transport; limit?: { ms: number; name: string } } = {},
): Connected {
  // A tighter bound of the action's own applies when it is lower than totalTimeout.
  const total = connection.totalTimeoutMs
  const deadline =
    limit !== undefined && (total === 0 || limit.ms < total)
      ? new Deadline(clock, limit.ms, limit.name)
      : new Deadline(clock, total)
  const stopListening = stopOnCancel(runner, deadline, clock)
  const client = new PlatformClient({
    ...connection,
    secrets,
    log: runner,
    deadline,
    clock,
    ...(transport === undefined ? {} : { transport }),
  })
  return {
    client,
    deadline,
    close: () => {
      stopListening()
      client.close()
    },
  }
}
