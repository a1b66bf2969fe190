/** One server-sent event as read off the wire: its name and its JSON data. */
export type StreamEvent = { event: string; data: any }

/**
 * Reads an event stream (GET /api/events, /api/users/pending/stream) from a fetch answer. `next(name)` resolves with
 * the data of the next event of that name not yet taken (others stay queued for their own `next`), or null when none
 * came within `timeoutMs`. The defaults are generous (20 s): an event that comes is waited for, however loaded the
 * machine; a test that checks that none comes passes its own short window.
 */
export function eventStreamReader(res: Response) {
  const reader = res.body!.getReader()
  const decoder = new TextDecoder()
  const queue: StreamEvent[] = []
  let text = ''
  let reading: ReturnType<typeof reader.read> | null = null
  let ended = false

  const parse = () => {
    for (let end = text.indexOf('\n\n'); end >= 0; end = text.indexOf('\n\n')) {
      const block = text.slice(0, end)
      text = text.slice(end + 2)
      const event = /^event: (.*)$/m.exec(block)?.[1]
      const data = /^data: (.*)$/m.exec(block)?.[1]
      if (event && data !== undefined) queue.push({ event, data: JSON.parse(data) })
    }
  }

  /** Reads until `done()` or the end of the stream; false when `deadline` came first. */
  async function readUntil(done: () => boolean, deadline: number): Promise<boolean> {
    for (;;) {
      if (done() || ended) return true
      const left = deadline - Date.now()
      if (left <= 0) return false
      reading ??= reader.read()
      let timer: ReturnType<typeof setTimeout> | undefined
      const got = await Promise.race([reading, new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), left)))])
      clearTimeout(timer)
      if (!got) return false
      reading = null
      if (got.done) ended = true
      else text += decoder.decode(got.value, { stream: true })
      parse()
    }
  }

  async function next(name: string, timeoutMs = 20_000): Promise<any | null> {
    const found = () => queue.some((e) => e.event === name)
    await readUntil(found, Date.now() + timeoutMs)
    const i = queue.findIndex((e) => e.event === name)
    if (i >= 0) return queue.splice(i, 1)[0]!.data
    if (ended) throw new Error(`stream ended before a "${name}" event`)
    return null
  }

  return {
    next,
    /** Like `next`, but an event that does not come is an error. */
    async expect(name: string, timeoutMs = 20_000): Promise<any> {
      const data = await next(name, timeoutMs)
      if (data === null) throw new Error(`no "${name}" event within ${timeoutMs} ms`)
      return data
    },
    /**
     * Waits for the server to close the stream: true when it did within `timeoutMs`. Events sent before the end stay
     * queued for `next`.
     */
    closed: async (timeoutMs = 20_000): Promise<boolean> => (await readUntil(() => false, Date.now() + timeoutMs)) && ended,
    cancel: () => reader.cancel().catch(() => {}),
  }
}

/** Reads a pending-approvals event stream: each call resolves with the next `pending` event's total. */
export function pendingTotals(res: Response) {
  const stream = eventStreamReader(res)
  return {
    next: async (): Promise<number> => (await stream.expect('pending', 30_000)).total as number,
    cancel: stream.cancel,
  }
}
