import { useEffect, useState } from 'react'

/**
 * False while an island hydrates, true from then on. An island reading a cache other islands fill (the live events'
 * counts) shows what the server rendered until then: an island hydrated earlier may already have put a newer number
 * in the cache, and React would find the markup changed (error 418).
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false)
  useEffect(() => setHydrated(true), [])
  return hydrated
}
