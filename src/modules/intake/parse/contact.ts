import type { Message } from './text'

/**
 * Phone numbers and emails. An Indian mobile is written every way (`98200 12345`, `+91-98200-12345`, `098200 12345`,
 * `91 98 2001 2345`) and comes out one way, `+91 98200 12345`, so the same broker's number compares equal in
 * duplicate control. Separators are single spaces, dashes or dots between digits; a number may not run on into more
 * digits (`65000 98200 12345` is a rent and a phone, not a phone starting 65000).
 */
const MOBILE = /(?<![\d+])(?:(?:\+|00)?91[\s.-]?|0)?[6-9](?:[\s.-]?\d){9}(?![\s.-]?\d)/g
/** Two numbers written one after the other with a space (`9280331459 7518187511`): each is read, the first first. */
const MOBILE_PAIR = /(?<![\d+])(?:(?:\+|00)?91[\s-]?)?[6-9]\d{9}(?=[\s,/|]+(?:(?:\+|00)?91[\s-]?)?[6-9]\d{9}(?!\d))/g
/** `97260,44912`: a mobile's two halves with a comma (Indian grouping never puts five digits before a comma). */
const MOBILE_COMMA = /(?<![\d+,])[6-9]\d{4},\d{5}(?![\d,])/g
/** `98xxxxxx10`, `98200 xxxxx`: a number masked on purpose, kept as written. */
const MASKED = /(?<![\w+])(?:\+91[\s-]?)?[6-9][\dx*]{2,4}[\s-]?[\dx*]{5,7}(?![\w])/g
/** A landline with its STD code: `022-2345 6789`, `(022) 23456789`, `+91 22 2345 6789`. */
const LANDLINE = /(?<![\d+])(?:\+91[\s-]?|\(?0)\d{2,4}\)?[\s-]?\d{3,4}[\s-]?\d{3,4}(?![\s.-]?\d)/g
/** Another country's number, written with its code: `+1 212 555 0100`, `+44 20 7946 0958`, `+971 50 123 4567`. */
const INTERNATIONAL = /(?<![\d+])\+(?!91)\d{1,3}(?:[\s.-]?\(?\d\)?){7,12}(?![\s.-]?\d)/g
// Starts only where a run of its characters starts: tried at every character of a long run, it was quadratic.
const EMAIL = /(?<![a-z0-9._%+-])[a-z0-9._%+-]+@[a-z0-9.-]+\.[a-z]{2,}/g

/** Does a text hold a mobile number or an email (the splitter's test for a phone line)? */
const ANY_CONTACT = new RegExp(`${MOBILE.source}|${EMAIL.source}`, 'i')
export const holdsContact = (text: string) => ANY_CONTACT.test(text)
/** The text without its first mobile number or email. */
export const withoutContact = (text: string) => text.replace(ANY_CONTACT, ' ')

export type Contact = { value: string; start: number; end: number }

export function formatMobile(digits: string): string {
  const ten = digits.slice(-10)
  return `+91 ${ten.slice(0, 5)} ${ten.slice(5)}`
}

/** The first contact of the message (all of them are taken, so none is read as an amount). */
export function findContact(msg: Message): Contact | null {
  const found: Contact[] = []
  for (const m of msg.matches(EMAIL)) {
    found.push({ value: m[0], start: m.index, end: m.index + m[0].length })
    msg.take(m.index, m.index + m[0].length, 'contact')
  }
  for (const re of [MOBILE_PAIR, MOBILE_COMMA]) {
    for (const m of msg.matches(re)) {
      found.push({ value: formatMobile(m[0].replace(/\D/g, '')), start: m.index, end: m.index + m[0].length })
      msg.take(m.index, m.index + m[0].length, 'contact')
    }
  }
  for (const m of msg.matches(MOBILE)) {
    found.push({ value: formatMobile(m[0].replace(/\D/g, '')), start: m.index, end: m.index + m[0].length })
    msg.take(m.index, m.index + m[0].length, 'contact')
  }
  for (const m of msg.matches(INTERNATIONAL)) {
    found.push({ value: m[0].trim(), start: m.index, end: m.index + m[0].length })
    msg.take(m.index, m.index + m[0].length, 'contact')
  }
  for (const m of msg.matches(MASKED)) {
    if (!/[x*]{2}/.test(m[0].replace(/[^\dx*]/g, ''))) continue
    if (m[0].replace(/[\s-]/g, '').replace(/^\+91/, '').length !== 10) continue
    found.push({ value: m[0].replace(/\s+/g, ''), start: m.index, end: m.index + m[0].length })
    msg.take(m.index, m.index + m[0].length, 'contact')
  }
  for (const m of msg.matches(LANDLINE)) {
    const digits = m[0].replace(/\D/g, '')
    if (digits.length < 10 || digits.length > 12) continue
    found.push({ value: m[0].trim(), start: m.index, end: m.index + m[0].length })
    msg.take(m.index, m.index + m[0].length, 'contact')
  }
  found.sort((a, b) => a.start - b.start)
  return found[0] ?? null
}

const CALL_WORDS = new Set(['call', 'contact', 'cont', 'cnt', 'ph', 'phone', 'mob', 'mobile', 'mo', 'whatsapp', 'wa', 'whatsap', 'no', 'number', 'num', 'pls', 'plz', 'please', 'on', 'me', 'at', 'sir', 'ji', 'broker', 'owner', 'agent', 'details', 'for', 'more', 'info', 'dm', 'ping', 'msg', 'message', 'interested', 'contact:', 'call:', 'mr', 'mrs', 'ms'])
const NAME_WORD = /^\p{Lu}\p{Ll}{1,15}$/u

/**
 * The name next to the number: `Call Rahul 98200…`, `Rahul Mehta - 98200…`, `98200… (Rahul)`, `…98200 12345 Rahul`.
 * Only capitalised words no other field took, and not the words said around a number (`Call`, `Mob`).
 */
export function findContactName(msg: Message, contact: Contact): string | null {
  const words = [...msg.text.matchAll(/\p{L}+/gu)].map((m) => ({ w: m[0], start: m.index, end: m.index + m[0].length }))
  const isName = (x: { w: string; start: number; end: number }) => NAME_WORD.test(x.w) && !CALL_WORDS.has(x.w.toLowerCase()) && msg.free(x.start, x.end)
  // Between two words of a name only spaces; between the name and the number spaces and a little punctuation.
  const gapOk = (from: number, to: number, loose: boolean) => (loose ? /^[\s:,\-–(.]*$/ : /^ ?$/).test(msg.text.slice(from, to))
  const name: typeof words = []
  let edge = contact.start
  for (let i = words.length - 1; i >= 0; i--) {
    const x = words[i]!
    if (x.end > contact.start) continue
    if (name.length >= 3) break
    const loose = name.length === 0
    if (!gapOk(x.end, edge, loose)) {
      // `Call Rahul: 98200…` is read; `Call: 98200…` gives no name.
      break
    }
    if (isName(x)) {
      name.unshift(x)
      edge = x.start
    } else if (name.length === 0 && CALL_WORDS.has(x.w.toLowerCase())) {
      edge = x.start
    } else break
  }
  if (name.length) {
    msg.take(name[0]!.start, name[name.length - 1]!.end, 'contact')
    return name.map((x) => x.w).join(' ')
  }
  const after: typeof words = []
  edge = contact.end
  for (const x of words) {
    if (x.start < contact.end) continue
    if (after.length >= 3 || !gapOk(edge, x.start, after.length === 0) || !isName(x)) break
    after.push(x)
    edge = x.end
  }
  const rest = msg.text.slice(edge).split('\n')[0]!
  if (!after.length || !/^[\s).]*$/.test(rest)) return null
  msg.take(after[0]!.start, after[after.length - 1]!.end, 'contact')
  return after.map((x) => x.w).join(' ')
}
