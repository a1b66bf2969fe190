// The image process's side: started by the pool (pool.ts) as `brokernet image-worker` (the binary) or
// `bun worker-entry.ts` (from source), it loads sharp, says it is ready, then processes one photo per message and
// answers each. It ends when the server closes the channel or goes away.
import { ImageRefused } from './refusal'
import { loadSharp } from './sharp-loader'
import { NATIVE_DIR_ENV, type WorkerMessage, type WorkerRequest } from './protocol'

export async function runImageWorker(): Promise<number> {
  if (!process.send) {
    console.error('image-worker is started by Brokernet itself, with a channel to talk over.')
    return 2
  }
  const send = (m: WorkerMessage) => process.send!(m)
  try {
    await loadSharp(process.env[NATIVE_DIR_ENV])
  } catch (e) {
    send({ ready: false, error: (e as Error).message })
    return 1
  }
  const { cardHere, processHere } = await import('./pipeline')
  process.on('message', async (m: WorkerRequest) => {
    const cpu = process.cpuUsage()
    try {
      if (m.card) {
        const card = await cardHere(new Uint8Array(m.bytes), process.env[NATIVE_DIR_ENV])
        const used = process.cpuUsage(cpu)
        return send({ id: m.id, ok: true, card, cpuMs: (used.user + used.system) / 1000 })
      }
      const photo = await processHere(new Uint8Array(m.bytes), process.env[NATIVE_DIR_ENV])
      const used = process.cpuUsage(cpu)
      send({ id: m.id, ok: true, photo, cpuMs: (used.user + used.system) / 1000 })
    } catch (e) {
      if (e instanceof ImageRefused) send({ id: m.id, ok: false, refused: { code: e.code, detail: e.detail } })
      else send({ id: m.id, ok: false, error: String((e as Error)?.message ?? e) })
    }
  })
  send({ ready: true })
  await new Promise((resolve) => process.once('disconnect', resolve))
  return 0
}
