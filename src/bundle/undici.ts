// A stand-in for undici in the bundle: the action never uses it.
/**
 * Stands in for `undici` in the bundle (tsconfig.json `paths`; ncc follows them).
 *
 * @actions/http-client imports undici only for HttpClient.getAgentDispatcher(), the
 * proxy dispatcher for fetch(). This action never calls it: it sends requests with
 * node:http through HttpClient.getAgent(), whose proxy tunnels come from `tunnel`.
 * Bundled, undici was 900 KB of the 1.1 MB entry file and 45 ms of module evaluation
 * at every start, before the first line of the action ran. If a later version of
 * http-client needed `new ProxyAgent()` on the path the action uses, the end-to-end
 * tests (which run the bundle, through a proxy too) would fail here, loudly. If it
 * imported another name from undici, that name would be undefined in the bundle (ncc
 * only warns): read the build output when upgrading http-client.
 */
// eslint-disable-next-line @typescript-eslint/no-extraneous-class -- http-client calls `new ProxyAgent()`.
export class ProxyAgent {
  constructor() {
    throw new Error('undici is not bundled with this action (see src/bundle/undici.ts).')
  }
}
