import { QueryClientProvider, type QueryClient } from '@tanstack/react-query'
import { createContext, use, type ComponentProps } from 'react'
import { islands, type IslandName } from '../../../islands/registry'
import { ErrorBoundary } from '../../../islands/shared/ErrorBoundary'
import { PhoneLayout } from '../../../islands/shared/layout'

/**
 * One page render's island state: `count` (the page ships the client script only when it is above zero), the
 * islands' names (the page preloads their chunks), the request's own QueryClient, which every island of the page
 * shares, as in the browser, and whether a phone asked (islands/shared/layout.ts).
 */
export type IslandCollector = { count: number; names: Set<IslandName>; queryClient: QueryClient; phone: boolean }
export const IslandContext = createContext<IslandCollector | null>(null)

/** JSON that is safe inside a <script>: no `<` can close the element or open a comment. */
export const serializeProps = (props: unknown) =>
  JSON.stringify(props).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029')

/**
 * Renders an island on the server: its full HTML (first view complete, no spinner), marked for the client,
 * with its props written once beside it, outside the element React hydrates.
 */
export function Island<N extends IslandName>({ name, props }: { name: N; props: ComponentProps<(typeof islands)[N]> }) {
  const collector = use(IslandContext)
  if (!collector) throw new Error(`<Island name="${name}"> rendered outside renderPage()`)
  const key = ++collector.count
  collector.names.add(name)
  const Component = islands[name] as (p: object) => React.ReactNode
  return (
    <>
      <div data-island={name} data-island-key={key}>
        <QueryClientProvider client={collector.queryClient}>
          <PhoneLayout value={collector.phone}>
            <ErrorBoundary>
              <Component {...(props as object)} />
            </ErrorBoundary>
          </PhoneLayout>
        </QueryClientProvider>
      </div>
      <script type="application/json" id={`island-props-${key}`} dangerouslySetInnerHTML={{ __html: serializeProps(props) }} />
    </>
  )
}
