// The browser entry: finds each server-rendered island, loads its code, and hydrates it with its serialised props.
// Every island shares one store (shared/atoms.ts) and one React Query client.
import { QueryClientProvider } from '@tanstack/react-query'
import { Provider } from './shared/atoms'
import { startTransition, useEffect } from 'react'
import { flushSync } from 'react-dom'
import { hydrateRoot } from 'react-dom/client'
import { loaders } from './loaders'
import type { IslandName } from './registry'
import { ErrorBoundary } from './shared/ErrorBoundary'
import { ISLANDS_HYDRATED } from './shared/hydrated-event'
import { PhoneLayout } from './shared/layout'
import { browserQueryClient } from './shared/query'
// From the page's start: the fields' values before the user touches them (the app worker's "mid-form" test).
import './shell/form-watch'
import { browserStore } from './shared/store'

const queryClient = browserQueryClient()
// What the server rendered for: a phone's layout first (./shared/layout.ts).
const phone = document.documentElement.dataset.layout === 'phone'

async function hydrate(el: HTMLElement) {
  const name = el.dataset.island as IslandName
  const propsEl = document.getElementById(`island-props-${el.dataset.islandKey}`)
  const load = loaders[name]
  if (!load || !propsEl) return console.error(`[islands] cannot hydrate "${name}"`)
  const Island = (await load()).default as (props: object) => React.ReactNode
  // A large island: a transition. React hydrates it in slices of a few milliseconds and lets the browser handle input
  // between them, instead of one long task for the whole island (a listing table's was over a second on a slow
  // phone). A small one (a badge, the toaster): at once, as soon as its code is here. In a transition it waited its
  // turn behind a large island scheduled before it (React takes roots of equal priority in order), and so behind
  // that island's effects and the re-render its first data caused (docs/decisions/063-warm-hydration-order.md).
  // Resolves once the island is hydrated (its effects run after that commit).
  const schedule = el.getElementsByTagName('*').length <= SMALL_ISLAND ? flushSync : startTransition
  await new Promise<void>((hydrated) =>
    schedule(() => {
      hydrateRoot(
        el,
        <Provider store={browserStore}>
          <QueryClientProvider client={queryClient}>
            <PhoneLayout value={phone}>
              <ErrorBoundary>
                <Island {...JSON.parse(propsEl.textContent || '{}')} />
              </ErrorBoundary>
            </PhoneLayout>
            <Committed then={hydrated} />
          </QueryClientProvider>
        </Provider>,
      )
    }),
  )
}

/**
 * An island of at most this many elements is hydrated at once (one task of a few milliseconds on a slow phone):
 * the shell's badges, bell and toaster are under 10, the sign-in form 14; the match inbox has about 150, a listing
 * page's list 900 to 1,400.
 */
const SMALL_ISLAND = 60

/** Renders nothing (no markup to match); its effect runs once the island's hydration has committed. */
function Committed({ then }: { then: () => void }) {
  useEffect(then, [then])
  return null
}

// Chunks load in parallel; a failed one leaves its region as the server drew it and the rest still come alive.
await Promise.allSettled([...document.querySelectorAll<HTMLElement>('[data-island]')].map(hydrate))
// Lets tests and scripts know the islands are live: every one hydrated (bun run bench:phone's "interactive").
document.documentElement.dataset.islands = 'hydrated'
window.dispatchEvent(new Event(ISLANDS_HYDRATED))
// The installed app's worker (issue 33): offline screens, push alerts, new versions. Its code comes now, after the
// islands: nothing of it is needed to draw or use the page.
void import('./shell/app-worker').then((m) => m.startAppWorker())
