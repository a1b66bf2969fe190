/**
 * Messages of a brokers' group that look like listings and are none (issue 30): a job ad (`Urgent Required …
 * Telecaller … Salary`), an ad selling leads (`Rs. 2,999 - 40 LEAD'S`), a broker's service ad (`BUY SELL ANY TYPE OF
 * LAND`), a meeting notice (`Meeting at 5 pm today at the office`), another trade's ad (packers and movers, home loans),
 * a fraud warning, a menu of kinds dealt in (`Plots | Flats | SCO`). Each needs two signs, so a listing that mentions one
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

/** Trades beside property that advertise in its groups: movers, loans, lawyers, vastu, pest control, interior designers. */
const OTHER_TRADE = /\b(?:packers?|movers?|shifting|relocation|home\s+loans?|loan\s+against\s+property|balance\s+transfer|advocates?|lawyers?|vastu|pest\s+control|interior\s+design(?:ers?|ing))\b/gi
/** A warning about a person or a fraud (`ALERT … fraud caller asking token money`). */
const WARNING = /\b(?:fraud|fraudsters?|frauds|scam|scams|scammers?|cheat|cheats|cheaters?|cheating|beware|alert|warning|theft|thief|thieves|stolen)\b/gi
/** A menu of what someone deals in (`Sale | Rent | Plots | Flats | SCO`): homes, land and shops named together. */
const MENU = [/\b(?:flats?|apartments?|kothis?|houses?|villas?|\d\s*bhk)\b/i, /\b(?:plots?|lands?)\b/i, /\b(?:sco|scos|shops?|booths?|showrooms?|offices?)\b/i]

const distinct = (text: string, re: RegExp) => new Set([...text.matchAll(re)].map((m) => m[0].toLowerCase().replace(/[\s-]+/g, ''))).size

/**
 * `heading` is what the listing shares with others of its message: a movers' heading (`PACKERS & MOVERS`) over `1 BHK
 * shifting Rs. 8,000` makes an ad of it, as the item names the trade too.
 */
export function chatter(text: string, found: { property: boolean; size: boolean; priced: boolean; said?: boolean }, heading = ''): boolean {
  if (distinct(text, JOB) >= 2) return true
  // Not when the item sells, lets or asks for a property (`flat for sale …, home loan available, balance transfer possible`).
  if (!found.size && !found.said && distinct(text, OTHER_TRADE) >= 1 && distinct(`${heading}\n${text}`, OTHER_TRADE) >= 2) return true
  if (!found.size && !found.priced && !found.said && distinct(text, WARNING) >= 2) return true
  if (!found.size && !found.priced && MENU.every((re) => re.test(text))) return true
  if ((text.match(LEADS)?.length ?? 0) >= 2 && LEAD_SERVICE.test(text) && !found.size) return true
  if (SERVICE.test(text) && !found.size && !found.priced) return true
  if (MEETING.test(text) && !found.size && !found.priced) return true
  if (INTRO.test(text) && !found.size && !found.priced) return true
  return false
}
