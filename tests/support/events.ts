/** Reads a pending-approvals event stream: each call resolves with the next `pending` event's total. */
export function pendingTotals(res: Response) {
  const reader = res.body!.getReader()
  const decoder = new TextDecoder()
  let text = ''
  return {
    next: async (): Promise<number> => {
      for (;;) {
        const m = /event: pending\ndata: (\{[^\n]*\})\n\n/.exec(text)
        if (m) {
          text = text.slice(m.index + m[0].length)
          return JSON.parse(m[1]!).total as number
        }
        const { value, done } = await reader.read()
        if (done) throw new Error('stream ended')
        text += decoder.decode(value)
      }
    },
    cancel: () => reader.cancel().catch(() => {}),
  }
}
