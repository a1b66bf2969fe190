import { createContext, createElement, use, useCallback, useSyncExternalStore, type ReactNode } from 'react'

// The little of Jotai the islands used (two primitive atoms: the toasts and the live connection), with Jotai's names,
// in a fraction of the code: Jotai's store, its internals and its React bindings were 8 KB raw (about 3 KB brotli) of
// every page's scripts (docs/decisions/049-phone-last-kilobytes.md). One store per page in the browser, one per
// request on the server (src/platform/pages/document.tsx), so no state crosses requests.

/** A value with its initial state; what it holds lives in a store. */
export type Atom<T> = { readonly init: T }
export const atom = <T>(init: T): Atom<T> => ({ init })

type SetValue<T> = T | ((previous: T) => T)
export type Store = {
  get: <T>(a: Atom<T>) => T
  set: <T>(a: Atom<T>, value: SetValue<T>) => void
  /** Calls `listener` after each change of `a`; returns the unsubscribe. */
  sub: <T>(a: Atom<T>, listener: () => void) => () => void
}

export function createStore(): Store {
  const values = new Map<Atom<unknown>, unknown>()
  const listeners = new Map<Atom<unknown>, Set<() => void>>()
  const get = <T>(a: Atom<T>): T => (values.has(a) ? (values.get(a) as T) : a.init)
  return {
    get,
    set<T>(a: Atom<T>, value: SetValue<T>) {
      const next = typeof value === 'function' ? (value as (previous: T) => T)(get(a)) : value
      if (Object.is(next, get(a))) return
      values.set(a, next)
      for (const listener of [...(listeners.get(a) ?? [])]) listener()
    },
    sub(a, listener) {
      const set = listeners.get(a) ?? new Set()
      listeners.set(a, set.add(listener))
      return () => void set.delete(listener)
    },
  }
}

const StoreContext = createContext<Store | null>(null)
let defaultStore: Store | undefined

/** Gives the islands under it `store` (one per page in the browser, one per request on the server). */
export const Provider = ({ store, children }: { store: Store; children?: ReactNode }) => createElement(StoreContext, { value: store }, children)

/** The Provider's store (a store of its own outside any Provider, as Jotai's default store). */
export const useStore = (): Store => use(StoreContext) ?? (defaultStore ??= createStore())

/** The atom's value in the Provider's store; re-renders when it changes. */
export function useAtomValue<T>(a: Atom<T>): T {
  const store = useStore()
  const subscribe = useCallback((listener: () => void) => store.sub(a, listener), [store, a])
  const read = () => store.get(a)
  return useSyncExternalStore(subscribe, read, read)
}
