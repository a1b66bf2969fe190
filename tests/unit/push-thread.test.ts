// The push sender's thread handle (src/platform/push/thread.ts): once the server has closed it, nothing starts a thread
// again. A look at the outbox that was on its way at shutdown used to start one after close, which then failed to open
// the database the server had let go of ("[push] the sender thread failed: unable to open database file").
import { afterEach, expect, test } from 'bun:test'
import { SenderThread, type ThreadConfig } from '../../src/platform/push/thread'

const entry = new URL('../../src/modules/notifications/push-thread.ts', import.meta.url).href
const config: ThreadConfig = { pushAllowHosts: [], publicUrl: 'http://127.0.0.1', mailFrom: 'test@example.com', databasePath: ':memory:' }
const handles: SenderThread[] = []
afterEach(async () => {
  for (const t of handles.splice(0)) await t.close()
})

test('a kick, a task or a start after close starts no thread', async () => {
  const thread = new SenderThread(entry, config, {}, undefined)
  handles.push(thread)
  await thread.close()
  thread.start()
  thread.kick([1])
  thread.task('anything', null)
  expect(thread.running).toBe(false)
})

test('before close a kick starts it, and close ends it', async () => {
  const thread = new SenderThread(entry, config, {}, undefined)
  handles.push(thread)
  thread.kick([])
  expect(thread.running).toBe(true)
  await thread.close()
  expect(thread.running).toBe(false)
})
