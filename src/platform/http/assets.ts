import { Elysia, NotFoundError } from 'elysia'
import { assetFiles, type AssetFile } from '../../../generated/assets'

const YEAR = 'public, max-age=31536000, immutable'
const HOUR = 'public, max-age=3600'
const hidden = { detail: { hide: true } }

function serve(asset: AssetFile, request: Request): Response {
  const gzip = asset.gzip && /\bgzip\b/.test(request.headers.get('accept-encoding') ?? '')
  const headers: Record<string, string> = {
    'content-type': asset.type,
    'cache-control': asset.immutable ? YEAR : HOUR,
    vary: 'accept-encoding',
  }
  if (gzip) headers['content-encoding'] = 'gzip'
  return new Response(Bun.file(gzip ? asset.gzip! : asset.path), { headers })
}

/**
 * Serves the files built by scripts/build-assets.ts from wherever `with { type: 'file' }` put them:
 * the disk in development, the binary's own embedded files once compiled. Gzip copies are prebuilt.
 *
 * Everything under /assets/ is one route that looks the file up (an unknown name is the usual not-found), rather
 * than a route per file: the ~45 routes cost a fifth of the app's start in Elysia (registration, its compiled
 * router, Bun's route table) for nothing (docs/decisions/004-lazy-start.md). Other files (the favicon) keep their
 * own route.
 */
export const assetRoutes = () => {
  const app = new Elysia({ name: 'assets' })
  for (const [url, asset] of Object.entries(assetFiles))
    if (!url.startsWith('/assets/')) app.get(url, ({ request }) => serve(asset, request), hidden)
  // A trailing slash finds the file too, as it does for any static route (Elysia's loose paths).
  const lookup = ({ path, request }: { path: string; request: Request }) => {
    const asset = assetFiles[path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path]
    if (!asset) throw new NotFoundError()
    return serve(asset, request)
  }
  return app.get('/assets/*', lookup, hidden).head('/assets/*', lookup, hidden)
}
