import { Elysia } from 'elysia'
import { pwaRoutes } from './routes'

/**
 * The installable app (issue 33; docs/decisions/035-web-push.md): the web app manifest, linked from every page
 * (src/platform/pages/document.tsx), and the service worker that keeps the shell and the last-seen screens for offline
 * and shows push alerts (./service-worker.js; registered by islands/shell/app-worker.ts).
 */
export const pwaFeature = () => ({ plugin: new Elysia({ name: 'pwa-feature' }).use(pwaRoutes()) })
