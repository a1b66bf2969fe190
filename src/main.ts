// The binary's entry (scripts/build-binary.ts): before anything else loads, the process starts itself again with its
// JavaScript heap sized for a server process rather than for the machine (src/platform/heap-budget.ts), then runs the
// server (./server.ts: the database, the app, the workers). `process.execve` replaces the process (the same pid, so a
// supervisor sees nothing); where it is not available the server runs as it is.
import { heapBudgetEnv } from './platform/heap-budget'
import { selfCommand } from './platform/processes'

const env = heapBudgetEnv(process.env)
if (env && typeof process.execve === 'function') {
  const [file, ...args] = selfCommand()
  try {
    process.execve(file!, [file!, ...args, ...process.argv.slice(2)], env)
  } catch (e) {
    console.error(`Could not start again with the heap's budget (${(e as Error).message}): running as started`)
  }
}
await import('./server')
