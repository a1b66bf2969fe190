/**
 * Messages of a brokers' group that look like listings and are none (issue 30): a job ad (`Urgent Required …
 * Telecaller … Salary`), an ad selling leads (`Rs. 2,999 - 40 LEAD'S`), a broker's service ad (`BUY SELL ANY TYPE OF
 * LAND`), a meeting notice (`Meeting at 5 pm today at the office`). Each needs two signs, so a listing that mentions one
 * word of them (`experience upscale living`, `best deals in plots`) is still read.
 */
const JOB = /\b(?:jobs?|vacanc(?:y|ies)|hiring|we\s+are\s+hiring|salary|salaries|telecallers?|tele[\s-]?callers?|incentives?|experience|fresher|freshers|candidates?|interview|resume|cv|office\s+boy|receptionist|field\s+executive|sales\s+executive)\b/gi
const LEADS = /\blead(?:s|['’]s)?\b/gi
const LEAD_SERVICE = /\b(?:services?|marketing|crm|software|packages?|campaigns?|genuine\s+leads|verified\s+leads|business)\b/i
/** Offering to buy and to sell anything: a broker's service, not a property. */
const SERVICE = /\b(?:buy\s*(?:&|and|\/|,|-)?\s*sell|sell\s*(?:&|and|\/|,|-)?\s*buy|sale\s*(?:&|and|\/|-)\s*purchase|purchase\s*(?:&|and|\/|-)\s*sale|any\s+type\s+of|all\s+types?\s+of|all\s+kinds?\s+of|deal(?:s|ing)?\s+in\s+(?:all|any))\b/i
const MEETING = /(?:^|\n)\W*(?:meeting|meet\s+(?:at|on|today|tomorrow)|get[\s-]together|reminder)\b|\bmeeting\s+(?:at|on|today|tomorrow|will|is)\b/i

/** A member introducing themselves (`I am Rakesh Jain from Sai Krupa Realty, dealing in Andheri W…`). */
const INTRO = /\b(?:i\s+am|i'm|this\s+is|myself|my\s+name\s+is)\b[^\n]{0,80}\b(?:from|dealing|deal\s+in|working|broker|realty|properties|estates?)\b/i

const distinct = (text: string, re: RegExp) => new Set([...text.matchAll(re)].map((m) => m[0].toLowerCase().replace(/[\s-]+/g, ''))).size

export function chatter(text: string, found: { property: boolean; size: boolean; priced: boolean }): boolean {
  if (distinct(text, JOB) >= 2) return true
  if ((text.match(LEADS)?.length ?? 0) >= 2 && LEAD_SERVICE.test(text) && !found.size) return true
  if (SERVICE.test(text) && !found.size && !found.priced) return true
  if (MEETING.test(text) && !found.size && !found.priced) return true
  if (INTRO.test(text) && !found.size && !found.priced) return true
  return false
}
