import { Elysia } from 'elysia'
import { assetFiles, assetUrls } from '../../../generated/assets'
import { VERSION } from '../../platform/version'
import { SITE_NAME, THEME_COLOR } from '../../shared/site'
import { SHARE_PATH, SHARED_PHOTOS_CACHE } from '../../../islands/intake/intake-text'

const hidden = { detail: { hide: true } }

/**
 * The web app manifest (issue 33): what makes Brokernet installable, opens it on the dashboard in its own window, and
 * offers it in Android's share sheet (`share_target`: the shared text is posted to the paste screen, ./share.ts).
 */
export const manifest = () => ({
  id: '/dashboard',
  name: SITE_NAME,
  short_name: SITE_NAME,
  description: 'The verified network where real-estate brokers post and discover requirements and availabilities.',
  start_url: '/dashboard',
  scope: '/',
  display: 'standalone',
  orientation: 'any',
  background_color: '#ffffff',
  theme_color: THEME_COLOR,
  icons: [
    { src: assetUrls.icon192, sizes: '192x192', type: 'image/png', purpose: 'any' },
    { src: assetUrls.icon512, sizes: '512x512', type: 'image/png', purpose: 'any' },
    { src: assetUrls.iconMaskable, sizes: '512x512', type: 'image/png', purpose: 'maskable' },
  ],
  // Text with photos (issue 34): the service worker keeps the photos in the browser and forwards the text.
  share_target: {
    action: SHARE_PATH,
    method: 'POST',
    enctype: 'multipart/form-data',
    params: { title: 'title', text: 'text', url: 'url', files: [{ name: 'photos', accept: ['image/*', '.jpg', '.jpeg', '.png', '.webp', '.heic', '.heif'] }] },
  },
})

/** What the worker keeps for offline from its install: the styles, every script chunk and the icons (not the API explorer's). */
export const precache = () =>
  Object.keys(assetFiles)
    .filter((url) => url.startsWith('/assets/') && /\.(css|js|png)$/.test(url) && !/\/(swagger-|service-worker-)/.test(url))
    .sort()

/** The worker's version: this build's (the files it keeps are named by their content, so a new build is a new list). */
export const workerVersion = () => `${VERSION}-${new Bun.CryptoHasher('sha256').update(precache().join('\n')).digest('hex').slice(0, 10)}`

let worker: Promise<string> | null = null
const workerSource = () =>
  (worker ??= Bun.file(assetFiles[assetUrls.serviceWorker]!.path)
    .text()
    .then((code) => `const VERSION = ${JSON.stringify(workerVersion())}\nconst PRECACHE = ${JSON.stringify(precache())}\nconst ICON = ${JSON.stringify(assetUrls.icon192)}\nconst SHARE_PATH = ${JSON.stringify(SHARE_PATH)}\nconst SHARED_PHOTOS = ${JSON.stringify(SHARED_PHOTOS_CACHE)}\n${code}`))

export const pwaRoutes = () =>
  new Elysia({ name: 'pwa' })
    .get('/manifest.webmanifest', () => new Response(JSON.stringify(manifest()), { headers: { 'content-type': 'application/manifest+json', 'cache-control': 'no-cache' } }), hidden)
    // At the root, so its scope is the whole site; never cached by HTTP, so a new build is found on the next visit.
    .get('/sw.js', async () => new Response(await workerSource(), { headers: { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-cache' } }), hidden)
