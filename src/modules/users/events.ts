/**
 * Tells open approval screens that the set of pending registrations changed, within this process.
 * `cityId` lets each listener decide whether the change is in its admin's scope.
 */
export class PendingEvents {
  private readonly target = new EventTarget()

  changed(cityId: number | null): void {
    this.target.dispatchEvent(new CustomEvent('pending', { detail: { cityId } }))
  }

  subscribe(listener: (cityId: number | null) => void, onClose: () => void): () => void {
    const handler = (e: Event) => listener((e as CustomEvent<{ cityId: number | null }>).detail.cityId)
    this.target.addEventListener('pending', handler)
    this.target.addEventListener('close', onClose)
    return () => {
      this.target.removeEventListener('pending', handler)
      this.target.removeEventListener('close', onClose)
    }
  }

  /** Ends every open stream: a graceful shutdown waits for requests in flight, and a stream never ends by itself. */
  close(): void {
    this.target.dispatchEvent(new Event('close'))
  }
}
