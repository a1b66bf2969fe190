import type { Db } from '../../../db/sql'
import { openThreadDb } from '../../../db/thread'
import { PushSender, type PushSenderOptions } from './sender'
import type { PushEvent } from './stats'
import type { FromThread, ToThread } from './thread'

/** How often the thread sends the server its batch of counted outcomes (and before it answers idle or close). */
const EVENTS_EVERY_MS = 250

/** A feature's work run in the thread (`SenderThread.task`), over its connection and its sender (whose `notify` queues). */
export type ThreadTask = (data: unknown) => Promise<void>

/**
 * The sender thread's side (./thread.ts): call once from the worker's entry file, with what only the feature can make
 * (the guard, over the thread's own database connection), and the tasks it may hand the thread, by name.
 */
export function servePushThread(extra: (db: Db) => Pick<PushSenderOptions, 'guard'>, tasksOf: (db: Db, sender: PushSender) => Record<string, ThreadTask> = () => ({})): void {
  const scope = globalThis as unknown as { onmessage: ((e: MessageEvent<ToThread>) => void) | null; postMessage: (m: FromThread) => void }
  let sender: PushSender | null = null
  let close: (() => Promise<void>) | null = null
  let tasks: Record<string, ThreadTask> = {}
  /** Tasks under way: idle and close wait for them (what they queue is then known to the sender). */
  const running = new Set<Promise<void>>()
  const settled = async () => {
    while (running.size > 0) await Promise.all(running)
  }
  let events: PushEvent[] = []
  let queued = 0
  let timer: ReturnType<typeof setTimeout> | null = null
  const flush = () => {
    if (timer) clearTimeout(timer)
    timer = null
    if (events.length === 0 && queued === 0) return
    scope.postMessage({ type: 'events', events, queued })
    events = []
    queued = 0
  }
  const stats = {
    // What the thread's tasks queue (the server counts its own notify()s itself).
    queued: (n: number) => {
      queued += n
      timer ??= setTimeout(flush, EVENTS_EVERY_MS)
    },
    record: (event: PushEvent) => {
      events.push(event)
      timer ??= setTimeout(flush, EVENTS_EVERY_MS)
    },
  }
  scope.onmessage = async ({ data: m }) => {
    if (m.type === 'start') {
      const opened = openThreadDb(m.config)
      close = opened.close
      sender = new PushSender(opened.db, m.config, { ...m.options, ...extra(opened.db), stats })
      tasks = tasksOf(opened.db, sender)
      sender.resume()
    } else if (m.type === 'kick') sender?.wake(m.tokens)
    else if (m.type === 'task') {
      const task = tasks[m.name]
      if (!task) return console.error(`[push] the sender thread has no task ${m.name}`)
      const run = task(m.data)
        .catch((err) => console.error(`[push] the sender thread's task ${m.name} failed:`, err))
        .finally(() => running.delete(run))
      running.add(run)
    } else {
      await settled()
      if (m.type === 'idle') await sender?.idle()
      else {
        await sender?.close()
        await close?.()
      }
      flush()
      scope.postMessage({ type: 'done', id: m.id })
    }
  }
}
