// @ts-check
/**
 * An HTTP proxy for HTTPS traffic (CONNECT tunnels), as a corporate proxy would be.
 * It records the target of each tunnel and connects it to 127.0.0.1 on the same
 * port, so that a made-up host name (platform.test) reaches the fake platform only
 * through the proxy.
 */
import { createServer } from 'node:http'
import { connect } from 'node:net'

/**
 * @param {{ credentials?: string }} [options] `user:password` the proxy requires (Basic),
 *   answering 407 to a tunnel without them
 */
export async function startConnectProxy(options = {}) {
  /** @type {string[]} the host:port of each CONNECT */
  const tunnels = []
  /** @type {Set<import('node:net').Socket | import('node:stream').Duplex>} tunnels leave the server's books */
  const sockets = new Set()
  const server = createServer((_req, res) => {
    res.writeHead(405).end('CONNECT only')
  })
  server.on('connect', (req, client, head) => {
    tunnels.push(req.url ?? '')
    const expected =
      options.credentials && `Basic ${Buffer.from(options.credentials).toString('base64')}`
    if (expected !== undefined && req.headers['proxy-authorization'] !== expected) {
      client.end(
        'HTTP/1.1 407 Proxy Authentication Required\r\nProxy-Authenticate: Basic realm="corp"\r\n\r\n',
      )
      return
    }
    const port = Number((req.url ?? '').split(':').pop())
    const upstream = connect(port, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n')
      upstream.write(head)
      upstream.pipe(client)
      client.pipe(upstream)
    })
    sockets.add(client).add(upstream)
    upstream.on('error', () => client.destroy())
    client.on('error', () => upstream.destroy())
  })
  await new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(undefined)))
  const address = server.address()
  const port = typeof address === 'object' && address !== null ? address.port : 0
  return {
    url: `http://127.0.0.1:${port}`,
    tunnels,
    close: () => {
      server.closeAllConnections()
      for (const socket of sockets) socket.destroy()
      return new Promise((resolve) => server.close(() => resolve(undefined)))
    },
  }
}
