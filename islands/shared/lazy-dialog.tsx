import { lazy, Suspense, useEffect, type ComponentType } from 'react'
import { ISLANDS_HYDRATED } from './hydrated-event'

/**
 * A dialog whose code is not part of the page's scripts: it renders nothing while closed (on the server too, so the
 * page's HTML loses its closed <dialog> shells), loads its code when first opened, and fetches it in the background
 * once the page is idle, so the first open is usually instant. The listing screens' dialogs (form, details, share,
 * delete, review, saved search) were a quarter of their islands' code and none is open when a page loads
 * (docs/decisions/040-phone-speed.md). Used in place of the dialog, with the same props:
 *
 *   const ListingFormDialog = lazyDialog(() => import('./ListingFormDialog').then((m) => m.ListingFormDialog), (p) => p.open)
 */
export function lazyDialog<P extends object>(load: () => Promise<ComponentType<P>>, isOpen: (props: P) => boolean): ComponentType<P> {
  let loading: Promise<{ default: ComponentType<P> }> | undefined
  const start = () => (loading ??= load().then((component) => ({ default: component })))
  const Dialog = lazy(start)
  return function LazyDialog(props: P) {
    useEffect(() => {
      let cancel = () => {}
      const whenIdle = () => {
        // Safari has no requestIdleCallback: a moment after the page came alive will do.
        if (typeof requestIdleCallback === 'function') {
          const id = requestIdleCallback(() => void start(), { timeout: 5000 })
          cancel = () => cancelIdleCallback(id)
        } else {
          const id = setTimeout(() => void start(), 2000)
          cancel = () => clearTimeout(id)
        }
      }
      // Not before every island of the page is hydrated (islands/client.tsx): an idle moment while another island's
      // scripts are still on their way would spend a slow phone's bandwidth on a closed dialog first.
      if (document.documentElement.dataset.islands === 'hydrated') whenIdle()
      else {
        window.addEventListener(ISLANDS_HYDRATED, whenIdle, { once: true })
        cancel = () => window.removeEventListener(ISLANDS_HYDRATED, whenIdle)
      }
      return () => cancel()
    }, [])
    if (!isOpen(props)) return null
    return (
      <Suspense fallback={null}>
        <Dialog {...props} />
      </Suspense>
    )
  }
}
