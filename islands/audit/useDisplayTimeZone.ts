import { useSyncExternalStore } from 'react'

const never = () => () => {}

/**
 * The zone times are shown in: 'UTC' on the server and while hydrating (so both print the same text), then the
 * browser's own (undefined). Anything mounted after hydration, such as a dialog, gets the browser's zone at once.
 */
export function useDisplayTimeZone(): string | undefined {
  const hydrated = useSyncExternalStore(
    never,
    () => true,
    () => false,
  )
  return hydrated ? undefined : 'UTC'
}
