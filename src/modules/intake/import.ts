import type { AppContext } from '../../platform/context'
import { invalid } from '../../platform/errors'
import { contactKey } from '../../shared/contact-key'
import { findDuplicates } from '../listings/duplicates'
import type { Viewer } from '../listings/store/where'
import { getUser } from '../users/store/read'
import { exportMessages, senderPhone, type ExportMessage } from './chat-export'
import { exportText } from './export-file'
import { localitiesOf } from './localities'
import { IMPORT_DAYS_DEFAULT, type ImportAnswer, type ImportBody, type ImportedDraft } from './model'
import { parsePaste } from './parse'
import { chatter } from './parse/chatter'
import { formatMobile } from './parse/contact'
import { cityOf } from './service'

/**
 * A whole WhatsApp chat export read into the broker's own drafts (issue 30). The broker's messages (one sender of the
 * export, by default the one whose number is the broker's phone) of the last 30 days become drafts with the day they
 * were posted; a message posted several times is one draft; each draft is checked against the network's listings
 * (duplicate control). Other senders' messages are never drafts: the answer lists them with what they posted and a
 * WhatsApp invitation to join, which is how a group becomes a network. Nothing is posted.
 */
export const IMPORT_MAX_DRAFTS = 300
/** Reading headers costs little against parsing: charged at a two-hundredth, so a 10 MB export fits a minute's allowance. */
const SCAN_SHARE = 200

const NO_MESSAGES = 'No WhatsApp messages were found in this file: export the chat from WhatsApp (Export chat, Without media) and choose that file'
const UNKNOWN_SENDER = 'Nobody of that name or number wrote in this chat'

/** A message that looks like a listing: a property word or a configuration, and a figure. Cheap, for counting others'. */
const LISTINGISH = /\d\s*(?:bhk|rk)\b|\b(?:office|shops?|showroom|warehouse|godown|plots?|land|villa|bungalow|penthouse|studio|flats?|kothi|house|booth|sco|loi|apartment)\b/i
const looksLikeListing = (text: string) => LISTINGISH.test(text) && /\d/.test(text) && !chatter(text, { property: true, size: false, priced: false })

const DAY_MS = 86_400_000
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10)
/** The same message posted again: its words, case and spacing aside. */
const sameMessage = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim()

export async function importForUser(ctx: AppContext, user: Viewer, body: ImportBody): Promise<ImportAnswer> {
  const text = await exportText(body.file)
  ctx.limits.pasteChars.charge(String(user.id), Math.ceil(text.length / SCAN_SHARE), 'chat exports read')
  const messages = exportMessages(text)
  if (!messages.length) throw invalid(NO_MESSAGES)

  const { phone } = await getUser(ctx.db, user, user.id)
  const mine = phone?.trim() ? contactKey(phone.trim()) : null
  const bySender = new Map<string, { messages: number; listings: number }>()
  for (const m of messages) {
    const s = bySender.get(m.sender) ?? { messages: 0, listings: 0 }
    s.messages++
    if (looksLikeListing(m.text)) s.listings++
    bySender.set(m.sender, s)
  }
  const asked = body.sender?.trim() || null
  if (asked && !bySender.has(asked)) throw invalid(UNKNOWN_SENDER)
  const chosen = asked ?? [...bySender.keys()].find((s) => mine !== null && senderPhone(s) !== null && contactKey(senderPhone(s)!) === mine) ?? null

  const since = isoDay(Date.now() - ((body.days ?? IMPORT_DAYS_DEFAULT) - 1) * DAY_MS)
  const own = chosen ? messages.filter((m) => m.sender === chosen && m.day >= since) : []
  // One draft per message, however often it was posted: the latest day it was.
  const distinct = new Map<string, { message: ExportMessage; times: number }>()
  for (const m of own) {
    const key = sameMessage(m.text)
    const seen = distinct.get(key)
    if (seen) {
      seen.times++
      if (m.day > seen.message.day) seen.message = m
    } else distinct.set(key, { message: m, times: 1 })
  }
  const newest = [...distinct.values()].sort((a, b) => (a.message.day < b.message.day ? 1 : a.message.day > b.message.day ? -1 : 0))
  ctx.limits.pasteChars.charge(
    String(user.id),
    newest.reduce((n, d) => n + d.message.text.length, 0),
    'chat exports read',
  )

  const cityId = cityOf(user, body.city_id)
  const localities = await localitiesOf(ctx.db, cityId)
  const drafts: ImportedDraft[] = []
  let truncated = false
  for (const { message, times } of newest) {
    for (const d of parsePaste(message.text, localities)) {
      if (drafts.length >= IMPORT_MAX_DRAFTS) {
        truncated = true
        break
      }
      drafts.push({ ...d, posted_at: message.day, times, duplicate: null })
    }
    if (truncated) break
  }
  if (cityId !== null) {
    for (const d of drafts) {
      const [found] = await findDuplicates(ctx.db, user, { ...d, contact_value: d.contact_value ?? phone, city_id: cityId })
      if (found) d.duplicate = { entry_id: found.listing.entry_id, own: found.own }
    }
  }

  const invitation = `I share my listings and requirements on Brokernet, our brokers' network: join here to see them and post yours. ${ctx.config.publicUrl}/register`
  const senders = [...bySender.entries()]
    .map(([sender, s]) => {
      const digits = senderPhone(sender)
      const chosenOne = sender === chosen
      return {
        sender,
        phone: digits ? (/^(?:91)?[6-9]\d{9}$/.test(digits) ? formatMobile(digits) : `+${digits}`) : null,
        messages: s.messages,
        listings: s.listings,
        chosen: chosenOne,
        invite_url: chosenOne ? null : `https://wa.me/${digits ? `${digits.length === 10 ? `91${digits}` : digits}` : ''}?text=${encodeURIComponent(invitation)}`,
      }
    })
    .sort((a, b) => b.listings - a.listings || b.messages - a.messages || a.sender.localeCompare(b.sender))
  const days = messages.map((m) => m.day).sort()
  return {
    messages: messages.length,
    first_day: days[0] ?? null,
    last_day: days[days.length - 1] ?? null,
    senders,
    sender: chosen,
    since,
    own_messages: own.length,
    drafts,
    truncated,
  }
}
