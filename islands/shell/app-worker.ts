// The installed app's side in the page (issue 33): registers the service worker (/sw.js, src/modules/pwa/), offers a
// new version with "New version: reload" (never while a form is being filled in: it waits until none is), and moves
// to a tapped notification's screen (the worker focuses this window and says where).

import { midForm } from './form-watch'

export { midForm } from './form-watch'
export { setAppBadge } from './app-badge'

/** Runs `then` as soon as no form is being filled in: now, or when the user leaves a field or closes a dialog. */
function whenNoForm(then: () => void) {
  if (!midForm()) return then()
  const check = () => {
    if (midForm()) return
    document.removeEventListener('focusout', later)
    document.removeEventListener('click', later)
    clearInterval(timer)
    then()
  }
  const later = () => setTimeout(check, 0)
  document.addEventListener('focusout', later)
  document.addEventListener('click', later)
  const timer = setInterval(check, 5000)
}

/** A bar at the foot of the screen with one action (44 px tall, announced politely). */
function offer(text: string, action: string, run: () => void) {
  document.querySelector('[data-app-offer]')?.remove()
  const bar = document.createElement('div')
  bar.dataset.appOffer = ''
  bar.setAttribute('role', 'status')
  bar.className = 'fixed inset-x-0 bottom-0 z-50 flex items-center justify-center gap-3 bg-neutral px-4 py-2 text-neutral-content'
  const label = document.createElement('span')
  label.textContent = text
  const button = document.createElement('button')
  button.type = 'button'
  button.className = 'btn btn-sm btn-primary min-h-11'
  button.textContent = action
  button.addEventListener('click', () => {
    bar.remove()
    run()
  })
  bar.append(label, button)
  document.body.append(bar)
}

export async function startAppWorker() {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return
  let reloading = false
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (reloading) location.reload()
  })
  navigator.serviceWorker.addEventListener('message', (event: MessageEvent<{ type?: string; url?: string }>) => {
    const url = event.data?.url
    if (event.data?.type !== 'open' || !url || new URL(url).origin !== location.origin) return
    if (!midForm()) location.assign(url)
    else offer('A notification is waiting.', 'Open it', () => location.assign(url))
  })
  let registration: ServiceWorkerRegistration
  try {
    registration = await navigator.serviceWorker.register('/sw.js', { scope: '/' })
  } catch (err) {
    return console.warn('[app] the service worker could not be registered:', err)
  }
  // A browser that blocks workers (a policy, an automation setting) may resolve with nothing rather than throw.
  if (!registration) return
  const offerUpdate = (waiting: ServiceWorker) =>
    whenNoForm(() =>
      offer('New version of Brokernet.', 'Reload', () => {
        reloading = true
        waiting.postMessage('skip-waiting')
      }),
    )
  // A version installed earlier and waiting; or one found now (each visit checks /sw.js, which HTTP never caches).
  if (registration.waiting && navigator.serviceWorker.controller) offerUpdate(registration.waiting)
  registration.addEventListener('updatefound', () => {
    const installing = registration.installing
    installing?.addEventListener('statechange', () => {
      if (installing.state === 'installed' && navigator.serviceWorker.controller) offerUpdate(installing)
    })
  })
}
