/**
 * The header WhatsApp writes before every message of a chat export or a copied run of messages, in its three formats:
 * - iPhone: `[12/03/24, 10:15:32 AM] Rahul Mehta: text`;
 * - Android: `12/03/2024, 10:15 am - Rahul Mehta: text`;
 * - WhatsApp Web and desktop (a copy of selected messages), time first: `[2:06 pm, 17/6/2025] +91 98200 12345: text`.
 * The sender is what comes before the first colon (a name or a phone number); lines WhatsApp writes itself (encryption
 * notice, "joined using this group's invite link") have none.
 */
const DATE = String.raw`\d{1,4}[/.\-]\d{1,2}[/.\-]\d{2,4}`
const TIME = String.raw`\d{1,2}[:.]\d{2}(?:[:.]\d{2})?(?:\s*[ap]\.?\s?m\.?)?`
const IOS = new RegExp(String.raw`^\s*\[(${DATE}),?\s+(${TIME})\]\s*(.*)$`, 'i')
const DESKTOP = new RegExp(String.raw`^\s*\[(${TIME}),\s*(${DATE})\]\s*(.*)$`, 'i')
const ANDROID = new RegExp(String.raw`^\s*(${DATE}),?\s+(${TIME})\s+[-–]\s+(.*)$`, 'i')
const SENDER = /^([^:]{1,60}?):\s?(.*)$/

export type Header = { date: string; time: string; sender: string | null; text: string }

/** The line's header, if it opens a message: its date and time as written, the sender, the text after it. */
export function readHeader(line: string): Header | null {
  let date: string
  let time: string
  let rest: string
  const ios = IOS.exec(line)
  const desktop = ios ? null : DESKTOP.exec(line)
  const android = ios || desktop ? null : ANDROID.exec(line)
  if (ios) [, date, time, rest] = ios as unknown as [string, string, string, string]
  else if (desktop) [, time, date, rest] = desktop as unknown as [string, string, string, string]
  else if (android) [, date, time, rest] = android as unknown as [string, string, string, string]
  else return null
  const s = SENDER.exec(rest)
  if (!s) return { date, time, sender: null, text: rest }
  const sender = s[1]!.trim()
  let text = s[2]!
  // A copy from WhatsApp Web repeats the sender before the text: `+91 98200 12345: +91 98200 12345: Flat for sale`.
  if (text.startsWith(`${sender}:`)) text = text.slice(sender.length + 1).replace(/^ /, '')
  return { date, time, sender, text }
}

/** Does the text hold a chat header on some line (then it is cut into messages by them)? */
export const holdsHeader = (lines: string[]) => lines.some((l) => IOS.test(l) || DESKTOP.test(l) || ANDROID.test(l))
