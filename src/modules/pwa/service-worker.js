// Brokernet's service worker (issue 33; docs/decisions/035-web-push.md). Served at /sw.js by src/modules/pwa/, which
// puts `VERSION` (the build's), `PRECACHE` (the app shell: styles, scripts, icons) and `ICON` in front of this file,
// so a new build is a new worker: installed in the background, taken on the page's "New version: reload" (never by
// itself in the middle of a form).
/* global VERSION, PRECACHE, ICON, SHARE_PATH, SHARED_PHOTOS */

const SHELL = `shell-${VERSION}`
/** The last-opened screens and their data, for offline: kept across versions, emptied at sign-out. */
const SEEN = 'seen-v1'
/** The screens kept for offline: the dashboard, listings, My Listings and matches (a listing's details are its API answer). */
const OFFLINE_PAGES = /^\/dashboard(?:\/(?:listings|my-listings|matches))?\/?$/
const OFFLINE_API = /^\/api\/(?:listings(?:\/mine|\/\d+(?:\/matches)?)?|matches)\/?$/
const OFFLINE_WRITE = "You're offline: nothing was saved. Try again once you're back online."

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(SHELL).then((cache) => cache.addAll(PRECACHE)))
  // Static routing (Chromium 123+): the hashed assets come straight from this version's cache, or the network if it
  // has not got one, without a fetch event (below) for each, so a revisit's 30-odd scripts do not wait for, or run,
  // this worker's code (docs/decisions/066-warm-revisit-routes-and-menus.md). A browser that has no static routing, or
  // refuses this rule, keeps the fetch handler, which does the same: the install never fails for it.
  try {
    if (event.addRoutes) event.waitUntil(event.addRoutes({ condition: { urlPattern: { pathname: '/assets/*' } }, source: { cacheName: SHELL } }).catch(() => {}))
  } catch {}
})

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) if (key.startsWith('shell-') && key !== SHELL) await caches.delete(key)
      // Navigation preload: the browser asks the server for a page while it starts this worker, instead of after.
      await self.registration.navigationPreload?.enable().catch(() => {})
      await self.clients.claim()
    })(),
  )
})

self.addEventListener('message', (event) => {
  if (event.data === 'skip-waiting') self.skipWaiting()
  if (event.data === 'forget') event.waitUntil(caches.delete(SEEN))
})

self.addEventListener('fetch', (event) => {
  const request = event.request
  const url = new URL(request.url)
  if (url.origin !== self.location.origin) return
  if (request.method === 'POST' && url.pathname === SHARE_PATH) return event.respondWith(shareIn(request))
  if (request.method !== 'GET') return event.respondWith(writeOrRefuse(request, url))
  if (url.pathname.startsWith('/assets/')) return event.respondWith(cacheFirst(request))
  if (request.mode === 'navigate' && OFFLINE_PAGES.test(url.pathname)) return event.respondWith(networkFirst(event, true))
  if (request.mode === 'navigate') return event.respondWith(fromNetwork(event).catch(() => offlinePage()))
  if (OFFLINE_API.test(url.pathname)) return event.respondWith(networkFirst(event, false))
})

/** A write goes to the server or is refused with a sentence: never queued, never lost without a word. */
async function writeOrRefuse(request, url) {
  try {
    const response = await fetch(request)
    // Signed out: what this browser kept of the user's screens goes too.
    if (url.pathname === '/api/auth/logout' && response.ok) await caches.delete(SEEN)
    return response
  } catch {
    return json(503, { detail: OFFLINE_WRITE })
  }
}

/**
 * "Share → Brokernet" with photos (issue 34): the photos stay in this browser (the SHARED_PHOTOS cache, the newest
 * share only, at most 10), never sent before the broker posts a draft; the text goes on to the server as before, with
 * the photos' number, and the browser follows its answer to the paste screen (after a sign-in when needed).
 */
async function shareIn(request) {
  let form
  try {
    form = await request.formData()
  } catch {
    return Response.redirect('/dashboard/paste', 303)
  }
  const photos = form.getAll('photos').filter((f) => typeof f === 'object' && f.size > 0 && (!f.type || f.type.startsWith('image/'))).slice(0, 10)
  await caches.delete(SHARED_PHOTOS)
  if (photos.length) {
    const cache = await caches.open(SHARED_PHOTOS)
    const at = Date.now()
    for (const [i, f] of photos.entries())
      await cache.put(`/shared-photos/${at}/${i}`, new Response(f, { headers: { 'content-type': f.type || 'application/octet-stream', 'x-name': encodeURIComponent(f.name || `photo-${i + 1}.jpg`) } }))
  }
  const text = new URLSearchParams()
  for (const key of ['title', 'text', 'url']) {
    const v = form.get(key)
    if (typeof v === 'string') text.set(key, v)
  }
  if (photos.length) text.set('kept_photos', String(photos.length))
  try {
    // The server's 303 (with the text's cookie) handed to the navigation as it is.
    return await fetch(SHARE_PATH, { method: 'POST', body: text, redirect: 'manual', credentials: 'same-origin' })
  } catch {
    return Response.redirect(`/dashboard/paste?shared=1${photos.length ? `&photos=${photos.length}` : ''}`, 303)
  }
}

async function cacheFirst(request) {
  const cached = await caches.match(request)
  if (cached) return cached
  const response = await fetch(request)
  if (response.ok) (await caches.open(SHELL)).put(request, response.clone())
  return response
}

/** A navigation's answer as navigation preload brought it (asked for while this worker started), else fetched now. */
async function fromNetwork(event) {
  const preloaded = event.request.mode === 'navigate' ? await event.preloadResponse : undefined
  return preloaded || fetch(event.request)
}

/**
 * The network's answer, kept with the time it came; offline, the kept one (a page under the "Offline: as of" banner).
 * The answer goes to the page as it streams in; its copy is written beside it (event.waitUntil), not before: waiting for
 * the whole body and the cache before answering held a warm revisit's page back by 0.5-1.4 s on a throttled phone
 * (docs/decisions/049-phone-last-kilobytes.md).
 */
async function networkFirst(event, page) {
  const request = event.request
  try {
    const response = await fromNetwork(event)
    if (response.ok && !response.redirected) event.waitUntil(keep(request, response.clone()))
    return response
  } catch {
    const cached = await (await caches.open(SEEN)).match(request, { ignoreVary: true })
    if (!cached) return page ? offlinePage() : json(503, { detail: "You're offline, and this was not opened here before." })
    if (!page) return cached
    const at = Number(cached.headers.get('x-kept-at'))
    const html = (await cached.text()).replace(/<body[^>]*>/, (body) => `${body}${banner(at)}`)
    return new Response(html, { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' } })
  }
}

async function keep(request, response) {
  const kept = new Response(await response.blob(), { status: response.status, headers: withTime(response.headers) })
  await (await caches.open(SEEN)).put(request, kept)
}

function withTime(headers) {
  const copy = new Headers(headers)
  copy.set('x-kept-at', String(Date.now()))
  return copy
}

const hhmm = (at) => new Date(at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', hour12: false })

function banner(at) {
  return `<div role="status" data-offline-banner class="sticky top-0 z-50 bg-warning px-4 py-2 text-center text-sm font-medium text-warning-content">Offline: as of ${hhmm(at)}. Changes can't be saved until you're back online.</div>`
}

async function offlinePage() {
  const css = PRECACHE.find((u) => u.endsWith('.css'))
  return new Response(
    `<!doctype html><html lang="en" data-theme="corporate"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Offline · Brokernet</title><link rel="stylesheet" href="${css}"></head><body class="min-h-screen bg-base-200 p-6"><main class="mx-auto max-w-md rounded-box bg-base-100 p-6"><h1 class="text-xl font-semibold">You're offline</h1><p class="mt-2">This screen was not opened on this device before. Your dashboard, listings, My Listings and matches open offline once you have seen them.</p><p class="mt-4"><a class="btn btn-primary min-h-11" href="/dashboard/matches">Open matches</a></p></main></body></html>`,
    { status: 503, headers: { 'content-type': 'text/html; charset=utf-8' } },
  )
}

const json = (status, body) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

// Push alerts: shown as the server wrote them (title, body, the screen to open, a tag that replaces an earlier one).
self.addEventListener('push', (event) => {
  let data = {}
  try {
    data = event.data ? event.data.json() : {}
  } catch {}
  const tag = typeof data.tag === 'string' ? data.tag : undefined
  event.waitUntil(
    (async () => {
      await self.registration.showNotification(typeof data.title === 'string' ? data.title : 'Brokernet', {
        body: typeof data.body === 'string' ? data.body : '',
        tag,
        icon: ICON,
        badge: ICON,
        data: { url: typeof data.url === 'string' && data.url.startsWith('/') ? data.url : '/dashboard' },
      })
      // A match the user has not seen: the app's icon says so (a dot; the open app sets the count).
      if (tag && tag.startsWith('match') && self.navigator.setAppBadge) await self.navigator.setAppBadge().catch(() => {})
    })(),
  )
})

// A tap opens the alert's screen in a window already open (focused; the page moves there unless a form is open),
// else a new one.
self.addEventListener('notificationclick', (event) => {
  event.notification.close()
  const url = new URL(event.notification.data?.url || '/dashboard', self.location.origin).href
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true })
      const open = windows.find((w) => new URL(w.url).origin === self.location.origin)
      if (open) {
        // A refused focus (the browser allows it only right after a tap) must not keep the page where it is.
        await open.focus().catch(() => {})
        open.postMessage({ type: 'open', url })
        return
      }
      await self.clients.openWindow(url)
    })(),
  )
})
