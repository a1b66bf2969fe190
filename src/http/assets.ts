import { Elysia } from 'elysia'
import { assetFiles } from '../../generated/assets'

const YEAR = 'public, max-age=31536000, immutable'
const HOUR = 'public, max-age=3600'

/**
 * Serves the files built by scripts/build-assets.ts from wherever `with { type: 'file' }` put them:
 * the disk in development, the binary's own embedded files once compiled. Gzip copies are prebuilt.
 */
export const assetRoutes = () => {
  const app = new Elysia({ name: 'assets' })
  for (const [url, asset] of Object.entries(assetFiles)) {
    app.get(
      url,
      ({ request }) => {
        const gzip = asset.gzip && /\bgzip\b/.test(request.headers.get('accept-encoding') ?? '')
        const headers: Record<string, string> = {
          'content-type': asset.type,
          'cache-control': asset.immutable ? YEAR : HOUR,
          vary: 'accept-encoding',
        }
        if (gzip) headers['content-encoding'] = 'gzip'
        return new Response(Bun.file(gzip ? asset.gzip! : asset.path), { headers })
      },
      { detail: { hide: true } },
    )
  }
  return app
}
