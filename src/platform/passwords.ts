// Password hashes, one at a time per process (issue 36: each process ≤ 300 MB resident).
//
// Bun.password's argon2id (m=65536, t=2: 64 MB per hash, and the hashes stored so far all carry that cost) allocates
// its 64 MB on a thread of Bun's pool for each hash or check under way. Four sign-ins at once grew a server from 72 to
// 211 MB, and the allocator gives the memory back only a moment after. A check is CPU bound on one core, so running
// them one after another per process costs a burst of sign-ins no throughput on a machine with as many server
// processes as cores (the default), and bounds what they hold to one hash's 64 MB. docs/decisions/059-start-and-memory.md.

let tail: Promise<unknown> = Promise.resolve()

/** Runs `work` after every hash queued before it has finished (whether it succeeded or not). */
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const run = tail.then(work, work)
  tail = run.catch(() => undefined)
  return run
}

/** Bun.password.hash (argon2id, Bun's default cost), queued behind the process's other hashes. */
export const hashPassword = (password: string): Promise<string> => oneAtATime(() => Bun.password.hash(password))

/** Bun.password.verify, queued behind the process's other hashes. */
export const verifyPassword = (password: string, hash: string): Promise<boolean> => oneAtATime(() => Bun.password.verify(password, hash))
