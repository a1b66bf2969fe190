import type { MailMessage } from '../../platform/mail'

type Recipient = { email: string; fullName: string }

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c])
}

/** Inline styles only: most mail clients drop <style> blocks and external stylesheets. */
export function layout(title: string, bodyHtml: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;padding:24px;background:#f4f4f5;font-family:Arial,Helvetica,sans-serif;color:#18181b;">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px;line-height:1.5;">
<h1 style="font-size:20px;margin:0 0 16px;">${escapeHtml(title)}</h1>
${bodyHtml}
<p style="margin:24px 0 0;font-size:12px;color:#71717a;">Brokernet</p>
</div>
</body>
</html>`
}

const paragraph = (html: string) => `<p style="margin:0 0 12px;">${html}</p>`

const button = (href: string, label: string) =>
  `<p style="margin:16px 0;"><a href="${escapeHtml(href)}" style="display:inline-block;background:#2563eb;color:#ffffff;padding:10px 18px;border-radius:6px;text-decoration:none;">${escapeHtml(label)}</a></p>` +
  // Clients that block buttons or links still show the address to copy.
  paragraph(`<span style="font-size:12px;color:#71717a;">${escapeHtml(href)}</span>`)

/** One item of a list mail (a digest's match, a reminder's listing): a box, its title line, a grey line, more HTML. */
const card = (title: string, note: string, more: string) =>
  `<div style="border:1px solid #e4e4e7;border-radius:6px;padding:12px;margin:0 0 12px;">` +
  `<p style="margin:0 0 4px;">${title}</p>` +
  `<p style="margin:0 0 4px;font-size:13px;color:#52525b;">${note}</p>` +
  more +
  `</div>`

/**
 * What a template writes: the subject, and the body twice, as lines of plain text and as HTML. `title` heads the HTML
 * (the subject unless said).
 */
type Content = { subject: string; title?: string; text: string[]; html: string }

/**
 * Every mail goes through here, so each says hello and signs the same way. To a user: "Hello <name>," opens both the
 * text and the HTML, and the text ends with the signature line "Brokernet - <PUBLIC_URL>" (the HTML's layout signs every
 * mail) unless `signed` is false (the approval ends on its sign-in link). To an address (the admins' notices): no
 * greeting and no signature line.
 */
function letter(to: { publicUrl: string; user: Recipient; signed?: boolean } | string, content: Content): MailMessage {
  const user = typeof to === 'string' ? null : to.user
  const signature = typeof to !== 'string' && to.signed !== false ? ['', `Brokernet - ${to.publicUrl}`] : []
  return {
    to: typeof to === 'string' ? to : to.user.email,
    subject: content.subject,
    text: [...(user ? [`Hello ${user.fullName},`, ''] : []), ...content.text, ...signature].join('\n'),
    html: layout(content.title ?? content.subject, (user ? paragraph(`Hello ${escapeHtml(user.fullName)},`) : '') + content.html),
  }
}

/**
 * A mail that lists things (a digest's matches, a reminder's listings): the intro, each item as text lines and as a
 * card, and a closing paragraph (text and HTML).
 */
function listMail(
  publicUrl: string,
  user: Recipient,
  subject: string,
  intro: string,
  body: { text: string[]; cards: string[]; endText: string; endHtml: string },
): MailMessage {
  return letter(
    { publicUrl, user },
    { subject, text: [intro, ...body.text, '', body.endText], html: paragraph(escapeHtml(intro)) + body.cards.join('') + body.endHtml },
  )
}

export function registrationReceived(publicUrl: string, user: Recipient): MailMessage {
  const lines = [
    'Thank you for registering with Brokernet. Your registration is pending approval by an administrator.',
    'Approval typically takes 1-2 business days. We will send you an email as soon as your account is approved.',
  ]
  return letter({ publicUrl, user }, { subject: 'Registration received - Brokernet', text: lines, html: lines.map(paragraph).join('') })
}

/** A table of labelled values (a registration's, a review request's). */
const detailsTable = (details: [string, string][], { valueStyle = '', labelStyle = '' } = {}) =>
  `<table style="border-collapse:collapse;margin:0 0 12px;">${details
    .map(([label, value]) => `<tr><td style="padding:2px 12px 2px 0;color:#71717a;${labelStyle}">${label}</td><td style="padding:2px 0;${valueStyle}">${escapeHtml(value)}</td></tr>`)
    .join('')}</table>`

export function newRegistration(
  publicUrl: string,
  to: string,
  user: Recipient & { cityName?: string | null; stateName?: string | null },
): MailMessage {
  const place = [user.cityName, user.stateName].filter(Boolean).join(', ')
  const link = `${publicUrl}/dashboard/approvals`
  const intro = 'A new broker has registered and is waiting for approval.'
  const details: [string, string][] = [
    ['Name', user.fullName],
    ['Email', user.email],
    ...(place ? [['Location', place] as [string, string]] : []),
  ]
  return letter(to, {
    subject: `New broker registration: ${user.fullName}`,
    title: 'New broker registration',
    text: [intro, '', ...details.map(([label, value]) => `${label}: ${value}`), '', `Review it at ${link}`],
    html: paragraph(intro) + detailsTable(details) + button(link, 'Review registrations'),
  })
}

export function registrationApproved(publicUrl: string, user: Recipient): MailMessage {
  const link = `${publicUrl}/login`
  return letter(
    { publicUrl, user, signed: false },
    {
      subject: 'Your Brokernet account is approved',
      text: ['Your Brokernet registration has been approved. You can now sign in:', link],
      html: paragraph('Your Brokernet registration has been approved. You can now sign in.') + button(link, 'Sign in'),
    },
  )
}

export function registrationRejected(publicUrl: string, user: Recipient, reason?: string | null): MailMessage {
  const why = reason?.trim()
  const sorry = 'We are sorry: your Brokernet registration was not approved.'
  return letter(
    { publicUrl, user },
    {
      subject: 'Your Brokernet registration',
      text: [sorry, ...(why ? [`Reason: ${why}`] : [])],
      html: paragraph(sorry) + (why ? paragraph(`<strong>Reason:</strong> ${escapeHtml(why)}`) : ''),
    },
  )
}

export function passwordReset(publicUrl: string, user: Recipient, resetUrl: string): MailMessage {
  const after = ['The link is valid for one hour and can be used once.', 'If you did not ask to reset your password, ignore this mail: your password stays as it is.']
  return letter(
    { publicUrl, user },
    {
      subject: 'Reset your Brokernet password',
      text: ['To choose a new Brokernet password, open this link:', resetUrl, '', ...after],
      html: paragraph('To choose a new Brokernet password, use the button below.') + button(resetUrl, 'Reset password') + after.map(paragraph).join(''),
    },
  )
}

/** Issue 29: a master admin reset the user's second factor (a lost phone): the next sign-in sets up a new one. */
export function secondFactorReset(publicUrl: string, user: Recipient, by: string): MailMessage {
  const lines = [
    `${by}, a master admin, reset your two-factor sign-in and signed you out everywhere. Your authenticator app's Brokernet entry and your recovery codes no longer work.`,
    'Sign in with your password to set up two-factor sign-in again.',
    'If you did not ask for this, tell a master admin at once.',
  ]
  const login = `${publicUrl}/login`
  return letter(
    { publicUrl, user },
    { subject: 'Your Brokernet two-factor sign-in was reset', text: [...lines, login], html: lines.map((l) => paragraph(escapeHtml(l))).join('') + button(login, 'Sign in') },
  )
}

/** One match as a digest lists it: both listings described in words, the score, the first reasons, and its link. */
export type DigestItem = { mine: string; other: string; broker: string; score: number; reasons: string[]; link: string }

/** New matches since the last digest (src/modules/matches/digest.ts); `more` are waiting in the inbox beyond these. */
export function matchDigest(publicUrl: string, user: Recipient, items: DigestItem[], more: number): MailMessage {
  const total = items.length + more
  const subject = `${total} new ${total === 1 ? 'match' : 'matches'} for your listings - Brokernet`
  const inbox = `${publicUrl}/dashboard/matches`
  const intro = `Brokers posted listings that fit yours. ${total === 1 ? 'This match is' : 'These matches are'} new since your last digest, and you have not seen ${total === 1 ? 'it' : 'them'} yet:`
  const moreText = more > 0 ? `And ${more} more: see them all at ${inbox}` : `All your matches: ${inbox}`
  return listMail(publicUrl, user, subject, intro, {
    text: items.flatMap((m) => ['', `Score ${m.score}: ${m.other}, by ${m.broker}`, `  for your ${m.mine}`, ...m.reasons.map((r) => `  - ${r}`), `  ${m.link}`]),
    cards: items.map((m) =>
      card(
        `<strong>Score ${m.score}</strong> &middot; <a href="${escapeHtml(m.link)}" style="color:#1d4ed8;">${escapeHtml(m.other)}</a>, by ${escapeHtml(m.broker)}`,
        `for your ${escapeHtml(m.mine)}`,
        `<ul style="margin:0;padding-left:18px;font-size:13px;">${m.reasons.map((r) => `<li>${escapeHtml(r)}</li>`).join('')}</ul>`,
      ),
    ),
    endText: moreText,
    endHtml: (more > 0 ? paragraph(`And ${more} more.`) : '') + button(inbox, 'Open your matches'),
  })
}

/** One listing of an expiry reminder: what it is, when it ends (in words), and its one-click renew link. */
export type ReminderItem = { entryId: string; what: string; ends: string; renewLink: string }

/** Listings of the user's that leave the network within days (src/modules/listings/reminders.ts). */
export function expiryReminder(publicUrl: string, user: Recipient, items: ReminderItem[], linkDays: number): MailMessage {
  const one = items.length === 1
  const subject = one ? `Your listing ${items[0]!.entryId} expires soon - Brokernet` : `${items.length} of your listings expire soon - Brokernet`
  const intro = `${one ? 'This listing leaves' : 'These listings leave'} the network when ${one ? 'its' : 'their'} end passes, unless you renew ${one ? 'it' : 'them'}:`
  const note = `Each link renews its listing once, with one click on the page it opens, and works for ${linkDays} days. You can also renew from My Listings: ${publicUrl}/dashboard/my-listings`
  return listMail(publicUrl, user, subject, intro, {
    text: items.flatMap((l) => ['', `${l.entryId}: ${l.what}`, `  ends ${l.ends}`, `  Renew: ${l.renewLink}`]),
    cards: items.map((l) => card(`<strong>${escapeHtml(l.entryId)}</strong>: ${escapeHtml(l.what)}`, `ends ${escapeHtml(l.ends)}`, button(l.renewLink, `Renew ${l.entryId}`))),
    endText: note,
    endHtml: paragraph(escapeHtml(note)),
  })
}

/** One listing of a saved search's daily mail: its entry ID, what it is, and its news ("Price changed"). */
export type SavedSearchItem = { entryId: string; what: string; news: string }

/** What is new in a saved search since its last mail (src/modules/saved-searches/digest.ts); `more` beyond these. */
export function savedSearchDigest(publicUrl: string, user: Recipient, search: { name: string; link: string }, items: SavedSearchItem[], more: number): MailMessage {
  const total = items.length + more
  const intro = `Since yesterday's mail, ${total === 1 ? 'this listing was' : 'these listings were'} posted, repriced or put back on the market in your saved search "${search.name}":`
  const moreText = more > 0 ? `And ${more} more.` : ''
  const note = 'You get this mail at most once a day. To stop it, choose "No alerts" for the search in Brokernet.'
  return letter(
    { publicUrl, user },
    {
      subject: `${search.name}: ${total} new ${total === 1 ? 'listing' : 'listings'} - Brokernet`,
      text: [intro, '', ...items.map((l) => `${l.entryId}: ${l.what} (${l.news})`), ...(moreText ? ['', moreText] : []), '', `Open the search: ${search.link}`, '', note],
      html:
        paragraph(escapeHtml(intro)) +
        `<ul style="margin:0 0 12px;padding-left:18px;">${items.map((l) => `<li><strong>${escapeHtml(l.entryId)}</strong>: ${escapeHtml(l.what)} <span style="color:#52525b;">(${escapeHtml(l.news)})</span></li>`).join('')}</ul>` +
        (moreText ? paragraph(moreText) : '') +
        button(search.link, 'Open the search') +
        paragraph(`<span style="font-size:12px;color:#71717a;">${note}</span>`),
    },
  )
}

/** A listing as the moderation mails name it (issue 29): its entry ID and what it is, in words. */
export type ModeratedListing = { entryId: string; what: string }

/**
 * To the admins of a listing's city and the master admins: its owner asks for a review of its suspension by an admin
 * (src/modules/listings/moderation.ts), with the reason they were given and their note.
 */
export function reviewRequested(
  to: string,
  request: ModeratedListing & { owner: string; city: string; reason: string; suspendedOn: string; note: string | null; link: string },
): MailMessage {
  const intro = `${request.owner} asks for a review of their listing ${request.entryId}, suspended by an admin.`
  const details: [string, string][] = [
    ['Listing', `${request.entryId}: ${request.what}`],
    ['Broker', request.owner],
    ['Suspended', request.suspendedOn],
    ['Reason given', request.reason],
    ...(request.note ? [['Their note', request.note] as [string, string]] : []),
  ]
  const end = 'Reactivate it (Unsuspend) or keep it suspended with your answer as the reason, from the listings grid.'
  return letter(to, {
    subject: `Review requested: ${request.entryId} (${request.city})`,
    title: 'Review requested',
    text: [intro, '', ...details.map(([label, value]) => `${label}: ${value}`), '', end, request.link],
    html:
      paragraph(escapeHtml(intro)) +
      detailsTable(details, { labelStyle: 'vertical-align:top;', valueStyle: 'white-space:pre-wrap;' }) +
      paragraph(escapeHtml(end)) +
      button(request.link, `Open ${request.entryId}`),
  })
}

/**
 * To a listing's owner: an admin suspended it (or, `upheld`, kept it suspended after the review they asked for), with
 * the reason; only an admin can reactivate it, and they may ask for a review from My Listings.
 */
export function listingSuspended(publicUrl: string, user: Recipient, listing: ModeratedListing & { reason: string; upheld: boolean }): MailMessage {
  const intro = listing.upheld
    ? `An admin reviewed your listing ${listing.entryId} (${listing.what}) and kept it suspended.`
    : `An admin suspended your listing ${listing.entryId} (${listing.what}): other brokers no longer see it, and it makes no new matches.`
  const myListings = `${publicUrl}/dashboard/my-listings`
  const end = 'Only an admin can reactivate it. If you have put right what the reason says, ask for a review from My Listings'
  return letter(
    { publicUrl, user },
    {
      subject: listing.upheld ? `Your listing ${listing.entryId} stays suspended - Brokernet` : `Your listing ${listing.entryId} was suspended by an admin - Brokernet`,
      text: [intro, '', `Reason: ${listing.reason}`, '', `${end}: ${myListings}`],
      html:
        paragraph(escapeHtml(intro)) +
        paragraph(`<strong>Reason:</strong> <span style="white-space:pre-wrap;">${escapeHtml(listing.reason)}</span>`) +
        paragraph(`${end}.`) +
        button(myListings, 'Open My Listings'),
    },
  )
}

/** To a listing's owner: an admin lifted the suspension they had put on it; it is ACTIVE again. */
export function suspensionLifted(publicUrl: string, user: Recipient, listing: ModeratedListing): MailMessage {
  const intro = `An admin lifted the suspension of your listing ${listing.entryId} (${listing.what}): it is ACTIVE and on the network again.`
  const myListings = `${publicUrl}/dashboard/my-listings`
  return letter(
    { publicUrl, user },
    {
      subject: `Your listing ${listing.entryId} is active again - Brokernet`,
      text: [intro, '', `My Listings: ${myListings}`],
      html: paragraph(escapeHtml(intro)) + button(myListings, 'Open My Listings'),
    },
  )
}

/** The morning of a co-broke deal's site visit (issue 35): both brokers are reminded. */
export function siteVisitReminder(publicUrl: string, user: Recipient, visit: { at: string; with: string; dealId: number }): MailMessage {
  const subject = `Site visit today at ${visit.at}`
  const link = `${publicUrl}/dashboard/deals/${visit.dealId}`
  return {
    to: user.email,
    subject,
    text: [`Hello ${user.fullName},`, '', `Your site visit with ${visit.with} is today, ${visit.at}.`, link].join('\n'),
    html: layout(subject, paragraph(`Hello ${escapeHtml(user.fullName)},`) + paragraph(`Your site visit with ${escapeHtml(visit.with)} is today, ${escapeHtml(visit.at)}.`) + button(link, 'Open the deal')),
  }
}
