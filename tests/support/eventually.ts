/**
 * Waits for a condition instead of for a time (a fixed sleep fails on a loaded machine, or wastes time on an idle
 * one): calls `check` until it returns something other than undefined/false, and returns that. Past the deadline it
 * throws, naming `what` and the last value seen, so a failure says what never came. The default deadline is generous:
 * it costs time only when the condition never comes, and 10 s was too short once for a push delivered by another
 * thread with three suites and five helpers at work (load 30-40; issue 37).
 */
export async function eventually<T>(what: string, check: () => T | Promise<T>, timeoutMs = 30_000, everyMs = 20): Promise<Exclude<T, false | undefined>> {
  const deadline = Date.now() + timeoutMs
  let last: T | undefined
  for (;;) {
    last = await check()
    if (last !== undefined && last !== false) return last as Exclude<T, false | undefined>
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms (last: ${JSON.stringify(last)})`)
    await Bun.sleep(everyMs)
  }
}
