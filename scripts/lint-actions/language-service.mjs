// @ts-check
// GitHub's language service over one file, told this repository's actions and their outputs.
import { isDescriptionDictionary, data } from '@actions/expressions'
import { validate } from '@actions/languageservice'
import { clearCacheEntry } from '@actions/languageservice/utils/workflow-cache'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { TextDocument } from 'vscode-languageserver-textdocument'
import { actionReader, localAsSelf, pathInRepository } from './actions.mjs'

/** @typedef {import('@actions/languageservice').ValidationConfig} ValidationConfig */

/** The Language Server Protocol's severity of a warning: errors are 1, information and hints 3 and 4. */
const WARNING = 2

/**
 * @typedef {object} Diagnostic a finding, at a 0-based line and character of the text
 * @property {number} line
 * @property {number} character
 * @property {string} message
 */

/**
 * What the language service is told: the metadata of this repository's actions, the files of
 * its reusable workflows, and the outputs of its actions' steps.
 * @param {string} root
 * @returns {ValidationConfig}
 */
export function validationConfig(root) {
  const actionIn = actionReader(root)
  /** @param {string} uses */
  const metadataOf = (uses) => {
    const path = pathInRepository(uses)
    return path === undefined ? undefined : actionIn(path)
  }
  return {
    actionsMetadataProvider: {
      // Called for `owner/name[/path]@ref` steps (and `$/path`, see localAsSelf below).
      fetchActionMetadata: (ref) => {
        const uses = `${ref.owner}/${ref.name}${ref.path === undefined ? '' : `/${ref.path}`}@${ref.ref}`
        if (pathInRepository(uses) !== undefined) return Promise.resolve(metadataOf(uses))
        // Another repository's action: its action.yml is not here (no network), and the
        // service calls an answer of undefined an unknown action. Without inputs, it checks
        // none of its inputs; actionlint knows those of the popular actions.
        return Promise.resolve({ name: uses, description: '' })
      },
    },
    fileProvider: {
      // Reusable workflows and `$/path` actions. Another repository's file is not here: the
      // service then says it cannot find that reusable workflow.
      getFileContent: (ref) => {
        const uses =
          'repository' in ref ? `${ref.owner}/${ref.repository}/${ref.path}@x` : `./${ref.path}`
        const path = pathInRepository(uses)
        if (path === undefined) return Promise.reject(new Error(`not in this repository: ${uses}`))
        return Promise.resolve({ name: path, content: readFileSync(join(root, path), 'utf8') })
      },
    },
    contextProviderConfig: {
      // The service takes every step's outputs as unknown (any name goes); a step of an
      // action read here has exactly the outputs its action.yml declares, so that a
      // misspelt one (steps.token.outputs.tokenVlue) is a finding.
      getContext: (name, defaults, workflow) => {
        if (name !== 'steps' || defaults === undefined) return Promise.resolve(undefined)
        for (const step of workflow.job?.steps ?? []) {
          const declared = 'uses' in step ? metadataOf(step.uses.value)?.outputs : undefined
          const context = defaults.get(step.id)
          const outputs =
            context !== undefined && isDescriptionDictionary(context)
              ? context.get('outputs')
              : undefined
          if (declared === undefined || outputs === undefined || !isDescriptionDictionary(outputs))
            continue
          for (const [output, { description }] of Object.entries(declared)) {
            outputs.add(output, new data.StringData(''), description)
          }
          outputs.complete = true
        }
        return Promise.resolve(defaults)
      },
    },
  }
}

/**
 * What the language service finds in one file: errors, and warnings, which it gives for a
 * context that may not exist (a misspelt output or step id), a deprecated input, a short SHA.
 * Each is a bug in a workflow a user copies, so both count. Hints and information (what a
 * cron schedule means) are not findings.
 * @param {string} uri where the text is (`action.yml` at its end makes it action metadata)
 * @param {string} text
 * @param {ValidationConfig} config
 * @returns {Promise<Diagnostic[]>}
 */
export async function languageService(uri, text, config) {
  const local = localAsSelf(text)
  const document = TextDocument.create(uri, 'yaml', 1, local.text)
  /** @param {string} message as the service says it, of the text it read */
  const asWritten = (message) =>
    message.replace(/`(\$\/[^`]*)`/g, (quoted, uses) => {
      const was = local.was.get(String(uses))
      return was === undefined ? quoted : `\`${was}\``
    })
  try {
    const found = await validate(document, config)
    return found
      .filter((d) => d.severity === undefined || d.severity <= WARNING)
      .map((d) => ({
        line: d.range.start.line,
        character: d.range.start.character,
        // A message may be Markdown ({ kind, value }): its text reads well enough in a terminal.
        message: asWritten(typeof d.message === 'string' ? d.message : d.message.value),
      }))
  } finally {
    // The service keeps what it parsed by URI, for an editor that tells it of each change.
    clearCacheEntry(uri)
  }
}
