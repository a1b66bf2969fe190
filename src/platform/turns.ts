// Work a timer does besides answering requests (the expiry reminders' or a digest's list of owners, listings that
// ended while the server was stopped) runs in turns: after TURN_MS of it, the event loop takes a turn, so requests that
// arrived meanwhile are read and answered before the next item. On SQLite a statement's `await` is only a microtask,
// and a loop of transactions never lets the loop read a socket: on the 1,000,000-listing bench database (55,597
// listings due a reminder, 15,004 owners) the primary's first reminder run held its thread for minutes, and a
// GET /api/health waited 29 s (issue 36). docs/decisions/054-background-turns.md.

/** How long background work holds the thread before requests get a turn: what a request can wait behind it. */
export const TURN_MS = 10

/** A turn of the event loop: I/O (sockets, timers) is served before the promise settles (the export's batches too). */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

/** A clock of background work: `pass()` after each item gives the loop a turn once TURN_MS has gone by. */
export class Turns {
  private since = performance.now()

  async pass(): Promise<void> {
    if (performance.now() - this.since < TURN_MS) return
    await nextTurn()
    this.since = performance.now()
  }
}

/** `work` for each item, in order, giving the event loop a turn every TURN_MS. */
export async function inTurns<T>(items: Iterable<T>, work: (item: T) => Promise<unknown>): Promise<void> {
  const turns = new Turns()
  for (const item of items) {
    await work(item)
    await turns.pass()
  }
}
