// @ts-check
// A module hook: JSON that @actions/workflow-parser imports without `type: 'json'` loads as JSON.

/**
 * Node refuses such an import (ERR_IMPORT_ATTRIBUTE_MISSING): the packages are built for the
 * VS Code extension's bundler. A `.json` import without a type is loaded as JSON.
 * @param {string} url
 * @param {{ format?: string | null, importAttributes: Record<string, string> }} context
 * @param {(url: string, context: object) => Promise<object>} nextLoad
 */
export function load(url, context, nextLoad) {
  if (url.endsWith('.json') && context.importAttributes.type === undefined) {
    return nextLoad(url, {
      ...context,
      importAttributes: { ...context.importAttributes, type: 'json' },
    })
  }
  return nextLoad(url, context)
}
