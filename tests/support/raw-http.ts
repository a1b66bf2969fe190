import { connect } from 'node:net'

/**
 * Sends a request head exactly as written, over a socket of its own, and reads the answer into a Response: for what
 * fetch will not send, such as a declared body length with no body behind it (fetch declares what it sends). The
 * server must answer before reading a body; the socket is closed once the answer's declared length has arrived.
 */
export function rawRequest(baseUrl: string, method: string, path: string, headers: Record<string, string>): Promise<Response> {
  const { hostname, port } = new URL(baseUrl)
  const head = `${method} ${path} HTTP/1.1\r\nhost: ${hostname}:${port}\r\n${Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n`
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0)
    const socket = connect(Number(port), hostname, () => socket.write(head))
    const finish = () => {
      const end = received.indexOf('\r\n\r\n')
      if (end < 0) return false
      const [statusLine, ...lines] = received.subarray(0, end).toString('latin1').split('\r\n')
      const answerHeaders = new Headers(lines.map((l) => [l.slice(0, l.indexOf(':')).trim(), l.slice(l.indexOf(':') + 1).trim()] as [string, string]))
      const length = Number(answerHeaders.get('content-length') ?? NaN)
      const body = received.subarray(end + 4)
      if (!Number.isNaN(length) && body.length < length) return false
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine!)?.[1])
      resolve(new Response(status === 204 ? null : body, { status, headers: answerHeaders }))
      socket.destroy()
      return true
    }
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk])
      finish()
    })
    socket.on('end', () => finish() || reject(new Error(`the connection closed before a whole answer: ${received.toString('latin1').slice(0, 200)}`)))
    socket.on('error', reject)
  })
}
