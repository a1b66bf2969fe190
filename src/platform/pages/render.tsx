import type { ReactElement } from 'react'
import type { PageOptions } from './document'

export type { PageOptions } from './document'

/**
 * Renders a whole page on the server (./document.tsx). That module brings React's server renderer and every
 * island, which a start does not need: a synchronous `require` loads it on the first page rendered, so the server
 * answers its first request without them and `renderPage` stays a plain function for every caller (pages and the
 * error handler alike). In the compiled binary it is a chunk of its own (docs/decisions/004-lazy-start.md).
 */
export function renderPage(body: ReactElement, options: PageOptions): Response {
  return (require('./document') as typeof import('./document')).renderPage(body, options)
}
