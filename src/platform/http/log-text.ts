/**
 * User-supplied text made safe to put inside a log line: control characters (line breaks above all, which would let a
 * name like "Evil\nMaster admin: ..." forge a line of its own) are written as escapes, and very long text is cut.
 * Every log line that quotes a request's or a user's words goes through this.
 */
export function logText(value: unknown, max = 300): string {
  const text = String(value)
  const cut = text.length > max ? `${text.slice(0, max)}…` : text
  return cut.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}
