// What JavaScriptCore is told the machine's memory is (issue 36, docs/decisions/087-heap-budget.md). It sizes its
// collector from that figure: the heap a process may reach before a collection, and how much it grows after one.
// Told the machine's real memory (24 GB on the bench machine), a process whose live heap is 50 MB let garbage run to
// twice that and more between collections, and the allocator keeps what it once handed out: 322–350 MB per process
// under bench:http's writer-on mixes. Told 512 MB, 260–280 MB, at the same rates.

/** The variable JavaScriptCore reads at start-up (it cannot be changed once the process runs). */
export const HEAP_RAM_VARIABLE = 'BUN_JSC_forceRAMSize'

/** The memory a Brokernet process tells JavaScriptCore it has, unless the operator set the variable (0: the machine's). */
export const HEAP_RAM_BYTES = 512 * 1024 * 1024

/**
 * The environment to start this same program again with, when the variable is not set yet; null when it is (the
 * operator's value, or the one given here before the program started again). Workers inherit it.
 */
export function heapBudgetEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv | null {
  if (env[HEAP_RAM_VARIABLE] !== undefined) return null
  return { ...env, [HEAP_RAM_VARIABLE]: String(HEAP_RAM_BYTES) }
}
