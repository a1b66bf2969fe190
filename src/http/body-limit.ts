import { Elysia } from 'elysia'

/** The largest request body the app reads: an identity document of 10 MB (admin upload) plus its form fields. */
export const MAX_BODY_BYTES = 11 * 1024 * 1024

/**
 * Refuses a declared body over the limit before anything reads it, with the API's JSON error. (Bun's own limit,
 * set higher in server.ts, still stops bodies that declare no length, but answers without a JSON `detail`.)
 */
export const bodyLimit = new Elysia({ name: 'body-limit' }).onRequest(({ request }) => {
  const length = Number(request.headers.get('content-length') ?? 0)
  if (length > MAX_BODY_BYTES)
    return Response.json({ detail: `Request body too large: the limit is ${MAX_BODY_BYTES / 1024 / 1024} MB` }, { status: 413 })
})
