// The browser entry: finds each server-rendered island and hydrates it with its serialised props.
// Every island shares one Jotai store and one React Query client.
import { QueryClientProvider } from '@tanstack/react-query'
import { Provider } from 'jotai'
import { hydrateRoot } from 'react-dom/client'
import { islands, type IslandName } from './registry'
import { ErrorBoundary } from './shared/ErrorBoundary'
import { browserQueryClient } from './shared/query'
import { browserStore } from './shared/store'

const queryClient = browserQueryClient()

for (const el of document.querySelectorAll<HTMLElement>('[data-island]')) {
  const name = el.dataset.island as IslandName
  const Island = islands[name] as (props: object) => React.ReactNode
  const propsEl = document.getElementById(`island-props-${el.dataset.islandKey}`)
  if (!Island || !propsEl) {
    console.error(`[islands] cannot hydrate "${name}"`)
    continue
  }
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

// Lets tests and scripts know the islands are live.
document.documentElement.dataset.islands = 'hydrated'
