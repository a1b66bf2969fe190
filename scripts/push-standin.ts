// The push-service stand-in (tests/support/push-service.ts) in a process of its own, for `bun run bench:push
// --standin-process`: its decryption and signature checks then take no turns on the server's event loop. Lines of
// JSON: it prints `{"origin"}` once; reads `{"subscribe": n}` and answers `{"subscriptions": [{id, endpoint, keys}]}`;
// prints `{"received": id, "at": ms}` for every message it took (with `"decrypted": true` when it was decrypted).
// A second argument N decrypts every N-th message only (default 1: all); a push service never decrypts (that is the
// browser's work), and here it would take the server's cores (docs/decisions/061-burst-cost.md).
import { startPushService, type BrowserSubscription } from '../tests/support/push-service'

const publicKey = process.argv[2]!
const service = await startPushService({ vapidPublicKey: () => publicKey, decryptEvery: Number(process.argv[3] ?? 1) })
const out = (o: unknown) => process.stdout.write(`${JSON.stringify(o)}\n`)
out({ origin: service.origin })
let seen = 0
// Every 10 ms (each message's line carries its own arrival time): each batch of lines wakes the bench's thread, which
// is the server's, and at 2 ms those wake-ups were work of the bench's own counted against the reads it measures.
setInterval(() => {
  for (; seen < service.received.length; seen++) {
    const r = service.received[seen]!
    if (r.answered >= 200 && r.answered < 300) out({ received: r.subscription, at: r.at, ...(r.decrypted ? { decrypted: true } : {}) })
  }
  if (service.refused.length) out({ refused: service.refused.length })
}, 10).unref()
const decoder = new TextDecoder()
let buffer = ''
for await (const chunk of Bun.stdin.stream()) {
  buffer += decoder.decode(chunk)
  for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
    const line = buffer.slice(0, i)
    buffer = buffer.slice(i + 1)
    const { subscribe } = JSON.parse(line) as { subscribe: number }
    const subs: BrowserSubscription[] = []
    for (let n = 0; n < subscribe; n++) subs.push(await service.subscribe())
    out({ subscriptions: subs.map((s) => ({ id: s.id, endpoint: s.endpoint, keys: s.keys })) })
  }
}
await service.stop()
