import { Elysia, NotFoundError } from 'elysia'
import { assetFiles, type AssetFile } from '../../../generated/assets'
import { acceptedEncodings } from './compression'

const YEAR = 'public, max-age=31536000, immutable'
const HOUR = 'public, max-age=3600'
const hidden = { detail: { hide: true } }

/** The prebuilt copy the client accepts: brotli (the smaller), else gzip, else the file itself. */
function serve(asset: AssetFile, request: Request): Response {
  const accepted = acceptedEncodings(request.headers.get('accept-encoding'))
  const encoding = asset.br && accepted.br > 0 && accepted.br >= accepted.gzip ? 'br' : asset.gzip && accepted.gzip > 0 ? 'gzip' : asset.br && accepted.br > 0 ? 'br' : null
  const headers: Record<string, string> = {
    'content-type': asset.type,
    'cache-control': asset.immutable ? YEAR : HOUR,
    // Also tells the compression of answers (./compression.ts) that this one chose its encoding itself.
    vary: 'accept-encoding',
  }
  if (encoding) headers['content-encoding'] = encoding
  return new Response(Bun.file(encoding === 'br' ? asset.br! : encoding === 'gzip' ? asset.gzip! : asset.path), { headers })
}

/**
 * Serves the files built by scripts/build-assets.ts from wherever `with { type: 'file' }` put them:
 * the disk in development, the binary's own embedded files once compiled. Brotli and gzip copies are prebuilt.
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
