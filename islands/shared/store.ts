import { createStore } from './atoms'

/**
 * The one store (./atoms.ts) every island shares in the browser. The server never uses it:
 * each request renders inside its own Provider (see src/platform/pages/render.tsx), so no state leaks between requests.
 */
export const browserStore = createStore()
