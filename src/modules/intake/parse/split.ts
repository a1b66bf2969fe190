import { holdsContact, withoutContact } from './contact'

/**
 * A paste cut into messages. WhatsApp's chat exports start every message with a header, the iPhone's
 * `[12/03/24, 10:15:32 AM] Rahul Mehta: text` and Android's `12/03/2024, 10:15 am - Rahul Mehta: text`; the lines
 * after a header without one of their own continue its message. Without headers, blank lines separate messages. Inside
 * a message, numbered items (`1)`, `2.`, `3-`) are one listing each, and so are consecutive lines that each open with
 * Req / Avl; lines before the first item (`Available on rent in Powai:`) and contact lines after the last are shared
 * by every item.
 */
export type Piece = {
  /** The listing's own text, without a chat header. */
  text: string
  /** Shared lines around numbered items: read for what the item does not say itself. */
  context: string
  sender: string | null
}

const DATE = String.raw`\d{1,4}[/.\-]\d{1,2}[/.\-]\d{2,4}`
const TIME = String.raw`\d{1,2}[:.]\d{2}(?:[:.]\d{2})?(?:\s*[ap]\.?\s?m\.?)?`
const IOS = new RegExp(String.raw`^\s*\[(${DATE}),?\s+${TIME}\]\s*(.*)$`, 'i')
const ANDROID = new RegExp(String.raw`^\s*(${DATE}),?\s+${TIME}\s+[-–]\s+(.*)$`, 'i')
/** The sender before the first colon (a name or a phone number), when the header has one: system lines have none. */
const SENDER = /^([^:]{1,60}?):\s?(.*)$/

/** What WhatsApp writes itself, never a listing. */
const SYSTEM = /messages and calls are end-to-end encrypted|<media omitted>|this message was deleted|you deleted this message|joined using this group'?s invite link|created group|\badded\b|\bleft\b|\bremoved\b|changed the (?:subject|group|this group)|changed their phone number|security code changed|<attached:|image omitted|video omitted|sticker omitted|document omitted|audio omitted|gif omitted|null$|missed voice call|missed video call|^\s*$/i

export function splitPaste(paste: string): Piece[] {
  const lines = paste.split('\n')
  const headed = lines.some((l) => IOS.test(l) || ANDROID.test(l))
  const messages: { text: string; sender: string | null }[] = []
  if (headed) {
    let cur: { lines: string[]; sender: string | null; system: boolean } | null = null
    const flush = () => {
      if (cur && !cur.system) messages.push({ text: cur.lines.join('\n'), sender: cur.sender })
    }
    for (const line of lines) {
      const h = IOS.exec(line) ?? ANDROID.exec(line)
      if (h) {
        flush()
        const s = SENDER.exec(h[2]!)
        cur = s ? { lines: [s[2]!], sender: s[1]!.trim(), system: SYSTEM.test(s[2]!) && !LISTINGISH.test(s[2]!) } : { lines: [], sender: null, system: true }
      } else if (cur) cur.lines.push(line)
      else cur = { lines: [line], sender: null, system: false }
    }
    flush()
  } else {
    for (const block of blocks(paste)) messages.push({ text: block, sender: null })
  }
  return messages.flatMap((m) => items(m.text.trim()).map((p) => ({ ...p, sender: m.sender })))
}

const TITLE = /\b(?:req[a-z]*|avl|avail[a-z]*|for\s+rent|for\s+sale|to\s+let|wanted|fresh\s+inventory|inventory|resale|outright|urgent)\b/i

/**
 * Blank lines separate messages, except around a title or a contact: a broadcast message spaces its heading
 * (`*AVAILABLE FOR RENT*`) and its phone line (`📞 Call: …`) from its body, and those belong to the listing next to them.
 */
function blocks(paste: string): string[] {
  const out: { text: string; listing: boolean }[] = []
  let head: string | null = null
  for (const raw of paste.split(/\n\s*\n/)) {
    let text = raw.trim()
    if (!text) continue
    const listing = LISTINGISH.test(text)
    const short = text.split('\n').length <= 2 && text.length <= 80
    // A heading says what follows and nothing more: no figure (`Req rent Chembur budget 30k` is a message of its own).
    if (!listing && short && TITLE.test(text) && !/\d/.test(text) && !/\?\s*$/.test(text)) {
      head = head ? `${head}\n${text}` : text
      continue
    }
    const last = out[out.length - 1]
    // A phone line says only who to call: a few words besides the number, none of them a listing's.
    const besides = withoutContact(text).match(/[\p{L}\p{N}]+/gu) ?? []
    if (!listing && !head && last?.listing && !holdsContact(last.text) && holdsContact(text) && besides.length <= 6 && !besides.some((w) => /\d/.test(w)) && !TITLE.test(text)) {
      last.text = `${last.text}\n\n${text}`
      continue
    }
    if (head) {
      if (listing) text = `${head}\n\n${text}`
      else out.push({ text: head, listing: false })
      head = null
    }
    out.push({ text, listing })
  }
  if (head) out.push({ text: head, listing: false })
  return out.map((b) => b.text)
}

const NUMBERED = /^\s*(?:\(?\d{1,2}[).:\-]|\d{1,2}\s*[️⃣]+|[•▪➤►✅🔹🔸👉*-]\s*(?=\S))\s*/u
const OPENS = /^\W*(?:req|reqd|requirement|required|wanted|need|looking|avl|available|availble|for\s+sale|for\s+rent|to\s+let|resale|outright)\b/i
const LISTINGISH = /\d\s*(?:bhk|rk)|\brk\b|\b(?:office|shop|showroom|warehouse|godown|plot|land|villa|bungalow|penthouse|studio|row\s*house|flat)\b|\bsites?\b(?!\s*visit)|(?<![\d.])[2-9]\d\s*[x×*]\s*[2-9]\d\d?(?!\d)/i

function items(text: string): Omit<Piece, 'sender'>[] {
  if (!text) return []
  const lines = text.split('\n')
  // Numbered items: at least two lines that open with a number and say something listing-like.
  const numbered = lines.map((l, i) => ({ i, l })).filter(({ l }) => NUMBERED.test(l) && /^\s*\(?\d/.test(l) && LISTINGISH.test(l))
  const opening = lines.map((l, i) => ({ i, l })).filter(({ l }) => OPENS.test(l) && LISTINGISH.test(l))
  const starts = numbered.length >= 2 ? numbered.map((x) => x.i) : opening.length >= 2 ? opening.map((x) => x.i) : []
  if (starts.length < 2) return [{ text, context: '' }]
  const head = lines.slice(0, starts[0]).join('\n')
  const out: { text: string; context: string }[] = []
  for (let k = 0; k < starts.length; k++) {
    const from = starts[k]!
    let to = k + 1 < starts.length ? starts[k + 1]! : lines.length
    // The item's number is no part of it (`3- 2BHK` is a 2 BHK, not a `3-2` range).
    const [first = '', ...rest] = lines.slice(from, to)
    out.push({ text: [first.replace(NUMBERED, ''), ...rest].join('\n').trim(), context: head })
  }
  // Lines after the last item that are not part of it (a contact, "call for details") are shared by all: the last item
  // ends at its first line that holds no listing words and follows a blank line or is a contact line.
  const last = out[out.length - 1]!
  const lastLines = last.text.split('\n')
  const cut = lastLines.findIndex((l, i) => i > 0 && /(?:call|contact|cont|ph|mob|📞|☎|whatsapp)\b|(?:\+?91[\s-]?)?[6-9]\d{4}[\s-]?\d{5}/i.test(l) && !LISTINGISH.test(l))
  if (cut > 0) {
    const tail = lastLines.slice(cut).join('\n')
    last.text = lastLines.slice(0, cut).join('\n')
    for (const o of out) o.context = [o.context, tail].filter(Boolean).join('\n')
  }
  return out
}
