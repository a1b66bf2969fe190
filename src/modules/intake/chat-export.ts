import { cleanPaste } from './parse/text'
import { messagesOf } from './parse/split'

/**
 * A WhatsApp chat export cut into its messages with the day each was posted (issue 30). The three formats' dates are
 * numbers in the order of the phone's locale: day first in India (`17/6/2025`), month first in the US (`6/17/25`); an
 * export is read day first unless one of its dates can only be month first (a second number above 12). Years of two
 * digits are this century's. Lines WhatsApp writes itself are left out (src/modules/intake/parse/split.ts).
 */
export type ExportMessage = { sender: string; day: string; text: string }

const PARTS = /^(\d{1,4})[/.\-](\d{1,2})[/.\-](\d{2,4})$/

export function exportMessages(text: string): ExportMessage[] {
  const messages = messagesOf(cleanPaste(text)).filter((m) => m.sender !== null && m.date !== null)
  const dates = messages.map((m) => PARTS.exec(m.date!.trim()))
  const monthFirst = !dates.some((d) => d && Number(d[1]) > 12 && d[1]!.length <= 2) && dates.some((d) => d && Number(d[2]) > 12)
  const out: ExportMessage[] = []
  messages.forEach((m, i) => {
    const d = dates[i]
    if (!d) return
    let [year, month, day] = d[1]!.length === 4 ? [d[1]!, d[2]!, d[3]!] : monthFirst ? [d[3]!, d[1]!, d[2]!] : [d[3]!, d[2]!, d[1]!]
    if (year.length === 2) year = `20${year}`
    const y = Number(year)
    const mo = Number(month)
    const da = Number(day)
    if (mo < 1 || mo > 12 || da < 1 || da > 31 || y < 2009 || y > 2100) return
    out.push({ sender: m.sender!, day: `${year.padStart(4, '0')}-${String(mo).padStart(2, '0')}-${String(da).padStart(2, '0')}`, text: m.text.trim() })
  })
  return out.filter((m) => m.text)
}

/** A sender written as a phone number (`+91 98200 12345`), in digits; a name gives null. */
export function senderPhone(sender: string): string | null {
  const digits = sender.replace(/[\s\-()]/g, '')
  return /^\+?\d{10,15}$/.test(digits) ? digits.replace(/^\+/, '') : null
}
