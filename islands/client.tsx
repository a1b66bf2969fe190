// The browser entry: finds each server-rendered island, loads its code, and hydrates it with its serialised props.
// Every island shares one Jotai store and one React Query client.
import { QueryClientProvider } from '@tanstack/react-query'
import { Provider } from 'jotai'
import { hydrateRoot } from 'react-dom/client'
import { loaders } from './loaders'
import type { IslandName } from './registry'
import { ErrorBoundary } from './shared/ErrorBoundary'
import { browserQueryClient } from './shared/query'
import { startAppWorker } from './shell/app-worker'
import { browserStore } from './shared/store'

const queryClient = browserQueryClient()

async function hydrate(el: HTMLElement) {
  const name = el.dataset.island as IslandName
  const propsEl = document.getElementById(`island-props-${el.dataset.islandKey}`)
  const load = loaders[name]
  if (!load || !propsEl) return console.error(`[islands] cannot hydrate "${name}"`)
  const Island = (await load()).default as (props: object) => React.ReactNode
  hydrateRoot(
    el,
    <Provider store={browserStore}>
      <QueryClientProvider client={queryClient}>
        <ErrorBoundary>
          <Island {...JSON.parse(propsEl.textContent || '{}')} />
        </ErrorBoundary>
      </QueryClientProvider>
    </Provider>,
  )
}

// Chunks load in parallel; a failed one leaves its region as the server drew it and the rest still come alive.
await Promise.allSettled([...document.querySelectorAll<HTMLElement>('[data-island]')].map(hydrate))
// Lets tests and scripts know the islands are live.
document.documentElement.dataset.islands = 'hydrated'
// The installed app's worker (issue 33): offline screens, push alerts, new versions.
void startAppWorker()
