// The push sender's thread (issue 33; src/platform/push/thread.ts): a Worker's entry file, listed as a second entry
// point of the compiled binary (scripts/build-binary.ts). It makes what only this feature knows, the guard that judges
// scope at the send, over the thread's own database connection.
import { servePushThread } from '../../platform/push/serve-thread'
import { pushGuard } from './guard'

servePushThread((db) => ({ guard: pushGuard(db) }))
