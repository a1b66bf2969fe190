// The signed-in user's live events (GET /api/events, docs/decisions/009-live-events.md): one Server-Sent Events
// connection per page, shared by every island that follows any of its events (the approvals board, the navigation
// badges). Opened by the first follower, closed by the last. While it is not connected, followers poll instead.
// A stream ends with its session (`session_ended`, src/platform/session-watch.ts): the page then stops following it
// rather than connecting again and again to be refused.
import { useQueryClient, type QueryClient } from '@tanstack/react-query'
import { atom, useAtomValue, useStore } from './atoms'
import { useEffect, useState } from 'react'
import { ApiError } from './api'
import { ISLANDS_HYDRATED } from './hydrated-event'
import { fetchJson } from './query'

export const EVENTS_URL = '/api/events'
/** Every event the stream sends: each is listened for from the start, so none is lost to an island still loading. */
const EVENT_NAMES = ['pending', 'matches', 'expiring', 'saved_search', 'deal'] as const
export type LiveEventName = (typeof EVENT_NAMES)[number]

/**
 * What an event does to the page. A module-level function, not a closure per island: it runs once per event however
 * many islands follow it.
 */
export type LiveEventHandler = (data: unknown, queryClient: QueryClient) => void

/** How long to wait before opening a new stream when the browser gave up on one (a refusal, a server restart). */
const REOPEN_MS = 30_000

/** Whether the stream is open now. Followers poll while it is false. */
export const liveConnectedAtom = atom(false)

type Store = ReturnType<typeof useStore>

let followers = 0
let source: EventSource | null = null
/** Set while a new stream is waited for (a timer, then the session check): nobody opens one meanwhile. */
let reopenTimer: ReturnType<typeof setTimeout> | undefined
/** The session is over: no stream is opened again on this page (its followers' polls meet the 401 and go to sign-in). */
let signedOut = false
/** The stream is opened once the page's islands are hydrated (see `openWhenHydrated`): waiting for that. */
let waitingForIslands = false
/** Handlers by event, each with how many islands asked for it. */
const handlers = new Map<LiveEventName, Map<LiveEventHandler, number>>()
/** The last data of each event, handed to a handler that starts following later (an island hydrated after it came). */
const last = new Map<LiveEventName, unknown>()

// Signing out on this page (the shell's form to /logout): the stream is closed before the form leaves, so its end is
// not taken for a session ended elsewhere, whose check (GET /api/auth/me) would only meet a 401 on a page about to go.
if (typeof document !== 'undefined')
  document.addEventListener(
    'submit',
    (event) => {
      const form = event.target
      if (!(form instanceof HTMLFormElement) || new URL(form.action, location.href).pathname !== '/logout') return
      signedOut = true
      clearTimeout(reopenTimer)
      reopenTimer = undefined
      source?.close()
      source = null
    },
    true,
  )

function open(store: Store, queryClient: QueryClient) {
  const es = new EventSource(EVENTS_URL)
  source = es
  es.addEventListener('open', () => store.set(liveConnectedAtom, true))
  for (const name of EVENT_NAMES)
    es.addEventListener(name, (event) => {
      let data: unknown
      try {
        data = JSON.parse((event as MessageEvent<string>).data)
      } catch {
        return
      }
      last.set(name, data)
      for (const handler of handlers.get(name)?.keys() ?? []) handler(data, queryClient)
    })
  // The session the stream was opened with ended (signed out here or elsewhere, deactivated, expired): the browser would
  // reconnect by itself and be refused, so the stream is closed here, and only a session still signed in (the cookie
  // may carry a newer one) opens another.
  es.addEventListener('session_ended', () => {
    es.close()
    source = null
    store.set(liveConnectedAtom, false)
    reopenIfSignedIn(store, queryClient, 0)
  })
  es.addEventListener('error', () => {
    // The browser reconnects by itself after a dropped connection; meanwhile the followers poll. Told a turn later:
    // leaving the page ends the stream too, and its error comes in the very task that replaces the page, so the
    // followers' re-render (tens of milliseconds on a slow phone) held the next page back; the page is gone by then.
    setTimeout(() => {
      if (es.readyState !== EventSource.OPEN) store.set(liveConnectedAtom, false)
    }, 0)
    if (es.readyState !== EventSource.CLOSED) return
    // Closed for good (an error status, a wrong content type): try again later, still polling in between.
    source = null
    reopenIfSignedIn(store, queryClient, REOPEN_MS)
  })
}

/**
 * Opens the stream once every island of the page is hydrated (islands/client.tsx), at once if they are. Its first
 * events (the counts) and its opening change what the shell's badges show: each such change re-renders an island at
 * once, and React, rendering another island meanwhile, starts that island's hydration over (it keeps one render in
 * progress at a time). On a listing page the list's hydration, a few hundred milliseconds on a slow phone, was cut
 * short that way (docs/decisions/063-warm-hydration-order.md). The badges show the server's counts until then.
 */
function openWhenHydrated(store: Store, queryClient: QueryClient) {
  if (document.documentElement.dataset.islands === 'hydrated') return open(store, queryClient)
  waitingForIslands = true
  window.addEventListener(
    ISLANDS_HYDRATED,
    () => {
      waitingForIslands = false
      if (followers > 0 && !source && !reopenTimer && !signedOut) open(store, queryClient)
    },
    { once: true },
  )
}

/**
 * Opens a new stream after `ms` if the session still holds. An EventSource does not tell why it was refused, so the
 * session is asked (GET /api/auth/me): a 401 or 403 (signed out, deactivated) stops for good; anything else (the server
 * away, restarting) tries again.
 */
function reopenIfSignedIn(store: Store, queryClient: QueryClient, ms: number) {
  clearTimeout(reopenTimer)
  reopenTimer = setTimeout(async () => {
    try {
      await fetchJson('/api/auth/me')
    } catch (error) {
      if (error instanceof ApiError && (error.status === 401 || error.status === 403)) signedOut = true
    }
    reopenTimer = undefined
    if (followers > 0 && !source && !signedOut) open(store, queryClient)
  }, ms)
}

function close(store: Store) {
  clearTimeout(reopenTimer)
  reopenTimer = undefined
  source?.close()
  source = null
  last.clear()
  store.set(liveConnectedAtom, false)
}

/**
 * Follows one event of the user's stream with `handler`; returns whether the stream is connected. False in the first
 * render whatever the stream's state: an island hydrating after another opened the stream must render what the
 * server did (React keeps the server's attributes on a mismatch, so a screen would stay marked as polling).
 */
export function useLiveEvent(name: LiveEventName, handler: LiveEventHandler): boolean {
  const store = useStore()
  const queryClient = useQueryClient()
  const [mounted, setMounted] = useState(false)
  useEffect(() => setMounted(true), [])
  useEffect(() => {
    if (typeof EventSource === 'undefined') return
    const counts = handlers.get(name) ?? new Map<LiveEventHandler, number>()
    handlers.set(name, counts)
    const fresh = !counts.has(handler)
    counts.set(handler, (counts.get(handler) ?? 0) + 1)
    followers++
    if (!source && !reopenTimer && !signedOut && !waitingForIslands) openWhenHydrated(store, queryClient)
    else if (fresh && last.has(name)) handler(last.get(name), queryClient)
    return () => {
      const n = counts.get(handler)! - 1
      if (n === 0) counts.delete(handler)
      else counts.set(handler, n)
      if (--followers === 0) close(store)
    }
  }, [name, handler, store, queryClient])
  return useAtomValue(liveConnectedAtom) && mounted
}
