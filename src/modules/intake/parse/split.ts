import { holdsHeader, readHeader } from './chat'
import type { LocalityIndex } from './places'
import type { Fields } from './read'
import { segment, type LineFacts, type Segment } from './segment'

/**
 * A paste cut into listings. WhatsApp's chat exports and copies start every message with a header (src/modules/intake/
 * parse/chat.ts: iPhone, Android and WhatsApp Web's time-first one); the lines after a header without one of their own
 * continue its message, and a message's sender is its contact when it names none. Without headers the paste is read as
 * one run of lines. Either way a message is cut into its listings by what its lines say (./segment.ts), not by its
 * blank lines: brokers put one fact per line with blank lines between.
 */
export type Piece = Segment & { sender: string | null }

/** What WhatsApp writes itself, never a listing. */
const SYSTEM = /messages and calls are end-to-end encrypted|<media omitted>|this message was deleted|you deleted this message|joined using this group'?s invite link|created group|\badded\b|\bleft\b|\bremoved\b|changed the (?:subject|group|this group)|changed their phone number|security code changed|<attached:|image omitted|video omitted|sticker omitted|document omitted|audio omitted|gif omitted|null$|missed voice call|missed video call|^\s*$/i
const LISTINGISH = /\d\s*(?:bhk|rk)|\b(?:office|shop|showroom|warehouse|godown|plot|land|villa|bungalow|penthouse|studio|flat|kothi|house|booth|sco)\b/i

/** A message of the paste: its text, its sender and its header's date as written (null without a header). */
export type Message = { text: string; sender: string | null; date: string | null }

/** The messages of a paste: by their headers when it has some, else the whole paste as one. */
export function messagesOf(paste: string): Message[] {
  const lines = paste.split('\n')
  if (!holdsHeader(lines)) return [{ text: paste, sender: null, date: null }]
  const messages: Message[] = []
  let cur: { lines: string[]; sender: string | null; system: boolean; date: string | null } | null = null
  const flush = () => {
    if (!cur) return
    const text = cur.lines.join('\n')
    const first = (cur.lines[0] ?? '').trim()
    // A line WhatsApp writes itself (`Rahul added +91…`, `<Media omitted>`), unless a listing follows it; a header whose
    // text starts on the next line is a message like any other.
    if (!text.trim() || cur.system || (first !== '' && SYSTEM.test(first) && !LISTINGISH.test(text))) return
    messages.push({ text, sender: cur.sender, date: cur.date })
  }
  for (const line of lines) {
    const h = readHeader(line)
    if (h) {
      flush()
      cur = h.sender !== null ? { lines: [h.text], sender: h.sender, system: false, date: h.date } : { lines: [], sender: null, system: true, date: h.date }
    } else if (cur) cur.lines.push(line)
    else cur = { lines: [line], sender: null, system: false, date: null }
  }
  flush()
  return messages
}

export function splitPaste(paste: string, index: LocalityIndex, memo: Map<string, LineFacts> = new Map(), readOnce?: (text: string) => Fields): Piece[] {
  return messagesOf(paste).flatMap((m) => segment(m.text, index, memo, readOnce).map((s) => ({ ...s, sender: m.sender })))
}
