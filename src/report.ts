import type { Result } from './operations/index.js'
import { withoutValue, type TokenRecord } from './records.js'
import { oneLine } from './text.js'
import type { Runner } from './runner.js'
import { createSummary, listSummary, revokeSummary } from './summary.js'

export interface ReportOptions {
  summary: boolean
}

/**
 * The one place that writes a result to the runner: log lines, outputs, the
 * environment and the job summary. Token values were masked when they arrived.
 */
export async function report(
  result: Result,
  options: ReportOptions,
  runner: Runner,
): Promise<void> {
  let summary: string
  switch (result.operation) {
    case 'create': {
      const { token, envName } = result
      runner.info(`Created gateway token '${oneLine(token.name)}' (${oneLine(token.id)}).`)
      recordOutputs(runner, token)
      runner.setOutput('tokenValue', token.tokenValue ?? '')
      if (envName) {
        runner.exportVariable(envName, token.tokenValue ?? '')
        runner.info(
          `The token value is in the environment variable ${envName} for later steps (masked).`,
        )
      }
      summary = createSummary(result)
      break
    }
    case 'list': {
      const { tokens, total } = result
      runner.info(`${tokens.length} of ${total} gateway tokens match.`)
      listOutputs(runner, tokens)
      summary = listSummary(result)
      break
    }
    case 'revoke': {
      const { token, alreadyRevoked } = result
      const which = `gateway token '${oneLine(token.name)}' (${oneLine(token.id)})`
      if (alreadyRevoked) {
        const when = token.revokedAt ? ` at ${oneLine(token.revokedAt)}` : ''
        runner.notice(`The ${which} was already revoked${when}; nothing to do.`)
      } else {
        runner.info(`Revoked ${which}.`)
      }
      recordOutputs(runner, token)
      runner.setOutput('revokedAt', token.revokedAt ?? '')
      runner.setOutput('revokedBy', token.revokedBy ?? '')
      summary = revokeSummary(result)
      break
    }
  }
  if (!options.summary) return
  try {
    await runner.writeSummary(summary)
  } catch (error) {
    // The operation is done and its outputs are set: a summary is not worth failing for.
    runner.warning(
      `Could not write the job summary: ${error instanceof Error ? error.message : String(error)}`,
    )
  }
}

/** The outputs of one record, shared by create and revoke. Never the value. */
function recordOutputs(runner: Runner, token: TokenRecord): void {
  runner.setOutput('tokenId', token.id)
  runner.setOutput('name', token.name)
  runner.setOutput('mediatorId', token.mediatorId ?? '')
  runner.setOutput('projectId', token.projectId ?? '')
  runner.setOutput('state', token.state)
  runner.setOutput('createdAt', token.createdAt ?? '')
  runner.setOutput('token', JSON.stringify(withoutValue(token)))
}

function listOutputs(runner: Runner, tokens: readonly TokenRecord[]): void {
  runner.setOutput('tokens', JSON.stringify(tokens.map(withoutValue)))
  runner.setOutput('count', String(tokens.length))
}
