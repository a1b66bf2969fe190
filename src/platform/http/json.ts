/**
 * JSON already serialised, for the hot read routes. Elysia checks a returned object against the route's response
 * schema on every request (profiled: 0.9 ms for a page of 25 listings, more than the page's queries); a Response
 * skips that check, while the schema still types and documents the route and the API tests check answers against it.
 */
export const json = (body: unknown, status = 200) => jsonText(JSON.stringify(body), status)

/** The same for a body serialised earlier (a cached page). */
export const jsonText = (text: string, status = 200) => new Response(text, { status, headers: { 'content-type': 'application/json' } })
