import { Elysia } from 'elysia'
import { assetUrls } from '../../../generated/assets'
import { VERSION } from '../../platform/version'
import { completeDocument } from './document'
import { MAX_BODY_BYTES, PHOTO_BODY_BYTES } from '../../platform/http/body-limit'
import { MAX_HEAD_BYTES } from '../../platform/http/head-limit'
import { TRANSPORT_HEAD_LIMIT } from '../../platform/http/transport'

const DESCRIPTION = [
  'The JSON API of Brokernet. Every path lives under `/api`.',
  '',
  '**Authentication.** Browsers use the HttpOnly `brokernet_session` cookie set by `POST /api/auth/login`.',
  'Scripts and this page send the same session token as `Authorization: Bearer <token>`: sign in once, copy the token',
  'and press **Authorize**.',
  '',
  '**Errors** are JSON `{"detail": "..."}`; validation errors are `{"detail": [{"loc": [...], "msg": "...", "type": "..."}]}` with status 422.',
  '',
  `**Answers every operation may give.** 413 for a body over ${MAX_BODY_BYTES / 1024 / 1024} MB (${PHOTO_BODY_BYTES / 1024 / 1024} MB for a listing's photos; declared or counted as it arrives);`,
  `431 when the address and headers are over ${MAX_HEAD_BYTES / 1024} KB together (the server's HTTP layer itself answers 431, without`,
  `the JSON body, to a request of more than about 190 header lines or over ${TRANSPORT_HEAD_LIMIT / 1024 / 1024} MB of them); 503 with \`Retry-After\` when the`,
  'database cannot be reached. A method no route takes (TRACE, PROPFIND…) is a 405 with `Allow` on any path: it is no',
  "operation's, so it is listed here only.",
].join('\n')

const documentation = {
  info: { title: 'Brokernet API', description: DESCRIPTION, version: VERSION },
  tags: [
    { name: 'Health', description: 'Liveness (with the version) and readiness' },
    { name: 'Auth', description: 'Sign in and out; the current user' },
    { name: 'Geographic', description: 'Countries, states and cities. Reading the lists is open; changes need a master admin (a city’s listing expiry: its module admin too).' },
  ],
  components: {
    securitySchemes: {
      cookieAuth: { type: 'apiKey', in: 'cookie', name: 'brokernet_session', description: 'Set by POST /api/auth/login' },
      bearerAuth: { type: 'http', scheme: 'bearer', description: 'The session token, for scripts and integrations' },
    },
  },
  security: [{ cookieAuth: [] }, { bearerAuth: [] }],
}
const OPENAPI_VERSION = '3.1.2' // @elysia/openapi's default
// staticFile: a path with a dot (/api/audit/export.csv) is an API route here, not a file.
const exclude = { paths: [/^(?!\/api\/)/], staticFile: false }

/**
 * The OpenAPI 3.1 document at /swagger/json and Swagger UI at /swagger, every asset served from this program.
 *
 * The document is @elysia/openapi's own (`toOpenAPISchema` over every route of the app, merged with our
 * documentation exactly as its `openapi()` plugin does), but the plugin and its 270 KB are imported on the first
 * request of the document rather than at start (docs/decisions/004-lazy-start.md). Built once: routes do not
 * change after start.
 */
export const docsRoutes = () => {
  let cached: Record<string, unknown> | undefined
  const docs = new Elysia({ name: 'docs' })
  return docs
    .get(
      '/swagger/json',
      async function openAPISchema() {
        if (cached) return cached
        const { toOpenAPISchema } = await import('@elysia/openapi')
        // `docs` reaches the whole app's routes once the app has used it (getGlobalRoutes), as the plugin did.
        const { paths, components: { schemas } } = toOpenAPISchema(docs, exclude, undefined, undefined, OPENAPI_VERSION)
        const doc = { ...documentation, openapi: OPENAPI_VERSION, paths, components: { ...documentation.components, schemas } }
        // What the plugin leaves out or says its own way (./document.ts).
        return (cached = completeDocument(doc, docs['getGlobalRoutes']() as Parameters<typeof completeDocument>[1]))
      },
      {
        error({ error }) {
          console.log('[@elysiajs/openapi] error at specPath')
          console.warn(error)
        },
        detail: { hide: true },
      },
    )
    .get('/swagger', () => new Response(swaggerPage, { headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' } }), {
      detail: { hide: true },
    })
}

const swaggerPage = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Brokernet API</title>
<link rel="icon" href="${assetUrls.favicon}" type="image/svg+xml">
<link rel="stylesheet" href="${assetUrls.swaggerCss}">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${assetUrls.swaggerJs}"></script>
<script src="${assetUrls.swaggerInit}"></script>
</body>
</html>`
