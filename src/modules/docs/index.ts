import { openapi } from '@elysia/openapi'
import { Elysia } from 'elysia'
import { assetUrls } from '../../../generated/assets'
import { VERSION } from '../../version'

const DESCRIPTION = [
  'The JSON API of Brokernet. Every path lives under `/api`.',
  '',
  '**Authentication.** Browsers use the HttpOnly `brokernet_session` cookie set by `POST /api/auth/login`.',
  'Scripts and this page send the same session token as `Authorization: Bearer <token>`: sign in once, copy the token',
  'and press **Authorize**.',
  '',
  '**Errors** are JSON `{"detail": "..."}`; validation errors are `{"detail": [{"loc": [...], "msg": "...", "type": "..."}]}` with status 422.',
].join('\n')

/** The OpenAPI 3.1 document at /swagger/json and Swagger UI at /swagger, every asset served from this program. */
export const docsRoutes = () =>
  new Elysia({ name: 'docs' })
    .use(
      openapi({
        path: '/swagger',
        specPath: '/swagger/json',
        provider: null, // we serve our own page: the plugin's loads scripts from a CDN and inlines one
        documentation: {
          info: { title: 'Brokernet API', version: VERSION, description: DESCRIPTION },
          tags: [
            { name: 'Health', description: 'Liveness and version' },
            { name: 'Auth', description: 'Sign in and out; the current user' },
            { name: 'Geographic', description: 'Countries, states and cities. Reading the lists is open; changes need a master admin.' },
          ],
          components: {
            securitySchemes: {
              cookieAuth: { type: 'apiKey', in: 'cookie', name: 'brokernet_session', description: 'Set by POST /api/auth/login' },
              bearerAuth: { type: 'http', scheme: 'bearer', description: 'The session token, for scripts and integrations' },
            },
          },
          security: [{ cookieAuth: [] }, { bearerAuth: [] }],
        },
        exclude: { paths: [/^(?!\/api\/)/] },
      }),
    )
    .get('/swagger', () => new Response(swaggerPage, { headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache' } }), {
      detail: { hide: true },
    })

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
