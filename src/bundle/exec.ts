// A stand-in for @actions/exec in the bundle: the action never runs a program.
/**
 * Stands in for `@actions/exec` in the bundle (tsconfig.json `paths`, as for undici).
 *
 * @actions/core imports @actions/exec (and through it @actions/io) only for
 * `core.platform.getDetails()`, which runs `lsb_release`, `sw_vers` or PowerShell to name
 * the OS. This action never calls it. Bundled, the two were about 45 KB of each entry
 * file, 2 ms of parsing at every start. Webpack then sees that nothing uses getDetails and
 * leaves the import out: the bundle keeps getDetails' dead code, which names an `exec`
 * that is not there. Were it ever called, it would fail with a ReferenceError, as this
 * stand-in would fail with its own error; test/tooling/bundle.test.ts keeps both out of the
 * bundle's reach from the action's own code.
 */
export function getExecOutput(): Promise<never> {
  return Promise.reject(
    new Error('@actions/exec is not bundled with this action (see src/bundle/exec.ts).'),
  )
}
