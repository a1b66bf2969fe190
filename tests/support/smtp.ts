import type { AddressInfo } from 'node:net'
import { SMTPServer, type SMTPServerError } from 'smtp-server'

export type Received = { from: string; to: string[]; raw: string }

/** Undoes quoted-printable soft breaks and escapes, so plain string checks work on any body encoding. */
export const decodeQp = (raw: string) =>
  raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))

type Options = {
  /** Whether the n-th RCPT TO (1-based) is refused with a temporary failure. */
  rejectRcpt?: (n: number) => boolean
  /** Messages are accepted only once this settles: keeps deliveries "on the wire". */
  holdData?: Promise<void>
}

/** A real SMTP server on a free loopback port. */
export async function startSmtp({ rejectRcpt = () => false, holdData = Promise.resolve() }: Options = {}) {
  const received: Received[] = []
  const waiters: (() => void)[] = []
  let rcptCalls = 0
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    disableReverseLookup: true,
    onRcptTo(_address, _session, callback) {
      rcptCalls++
      if (!rejectRcpt(rcptCalls)) return callback()
      const err: SMTPServerError = new Error('Mailbox temporarily unavailable')
      err.responseCode = 450
      callback(err)
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (chunk: Buffer) => chunks.push(chunk))
      stream.on('end', async () => {
        await holdData
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        })
        waiters.splice(0).forEach((wake) => wake())
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const { port } = server.server.address() as AddressInfo
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    rcptCalls: () => rcptCalls,
    /** The first message to `to` containing `text` (waiting up to `timeoutMs` for it), decoded for plain string checks. */
    async messageTo(to: string, text = '', timeoutMs = 20_000): Promise<string> {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const found = received.find((m) => m.to.includes(to) && decodeQp(m.raw).includes(text))
        if (found) return decodeQp(found.raw)
        if (Date.now() > deadline) throw new Error(`no mail to ${to} containing "${text}" within ${timeoutMs} ms`)
        await new Promise<void>((resolve) => {
          waiters.push(resolve)
          setTimeout(resolve, 200)
        })
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}
