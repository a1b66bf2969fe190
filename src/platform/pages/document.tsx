import { createStore, Provider } from '../../../islands/shared/atoms'
import type { ReactElement } from 'react'
import { renderToString } from 'react-dom/server'
import { assetUrls, clientScripts, islandScripts } from '../../../generated/assets'
import { makeQueryClient } from '../../../islands/shared/query'
import { MANIFEST_URL, THEME_COLOR } from '../../shared/site'
import { Island, IslandContext, type IslandCollector } from './island'

export type PageOptions = {
  title: string
  description?: string
  status?: number
  headers?: Record<string, string>
  /**
   * More `<meta>` tags, by name: `og:*` are written as `property` (Open Graph), the rest as `name` (`robots`,
   * `twitter:*`). A public listing page's preview card (issue 34).
   */
  meta?: Record<string, string>
  /** A phone asked (src/platform/http/phone.ts): islands render for a narrow screen first (islands/shared/layout.ts). */
  phone?: boolean
}

/**
 * `<link rel="modulepreload">` for every chunk the page's islands need beyond the entry (scripts/build-assets.ts lists
 * them): the browser fetches them all with the entry, instead of learning of each one only when its importer has
 * arrived and run, a round trip each (docs/decisions/040-phone-speed.md).
 */
export function modulePreloads(names: Iterable<string>): string {
  const urls = new Set(clientScripts.filter((u) => u !== assetUrls.client))
  for (const name of names) for (const u of islandScripts[name] ?? []) urls.add(u)
  return [...urls].map((u) => `<link rel="modulepreload" href="${u}">\n`).join('')
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

// The page renderer behind ./render.tsx, which loads this module (React's server renderer, the islands' store, React Query and
// every island) on the first page it renders rather than at start (docs/decisions/004-lazy-start.md).

/**
 * Renders a whole page on the server. Each request gets its own store (islands/shared/atoms.ts) and its own React Query client
 * (state never leaks between requests; islands get server data as props and `initialData`, nothing is
 * fetched). The island script and the toast host are added only when the page holds an island.
 */
export function renderPage(body: ReactElement, { title, description, status = 200, headers = {}, meta = {}, phone = false }: PageOptions): Response {
  const collector: IslandCollector = { count: 0, names: new Set(), phone, queryClient: makeQueryClient({ server: true }) }
  const store = createStore()
  const wrap = (el: ReactElement) =>
    renderToString(
      <IslandContext value={collector}>
        <Provider store={store}>{el}</Provider>
      </IslandContext>,
    )
  let html = wrap(body)
  const hasIslands = collector.count > 0
  if (hasIslands) html += wrap(<Island name="Toaster" props={{}} />)

  const doc = `<!doctype html>
<html lang="en" data-theme="corporate"${phone ? ' data-layout="phone"' : ''}>
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title === 'Brokernet' ? title : `${title} · Brokernet`)}</title>
<meta name="description" content="${escapeHtml(description ?? 'Brokernet: the verified network where real-estate brokers post and discover requirements and availabilities.')}">
${Object.entries(meta)
  .map(([k, v]) => `<meta ${k.startsWith('og:') ? 'property' : 'name'}="${escapeHtml(k)}" content="${escapeHtml(v)}">\n`)
  .join('')}<link rel="icon" href="${assetUrls.favicon}" type="image/svg+xml">
<link rel="manifest" href="${MANIFEST_URL}">
<meta name="theme-color" content="${THEME_COLOR}">
<link rel="apple-touch-icon" href="${assetUrls.icon192}">
<link rel="stylesheet" href="${assetUrls.css}">
${hasIslands ? `<script type="module" src="${assetUrls.client}"></script>\n${modulePreloads(collector.names)}` : ''}</head>
<body class="min-h-screen bg-base-200 text-base-content antialiased">
${html}
</body>
</html>`
  return new Response(doc, { status, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache', ...headers } })
}
