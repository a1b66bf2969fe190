import { atom } from './atoms'
import { TOAST } from '../../src/shared/constants'
import { browserStore } from './store'

export type ToastKind = 'success' | 'error' | 'info' | 'blank' | 'loading'
/** A button in the toast (Undo): it runs once, and the toast leaves. */
export type ToastAction = { label: string; run: () => void }
export type Toast = { id: number; kind: ToastKind; message: string; action?: ToastAction }

export const toastsAtom = atom<Toast[]>([])

const DURATION: Record<ToastKind, number | null> = {
  success: TOAST.successMs,
  error: TOAST.errorMs,
  info: TOAST.defaultMs,
  blank: TOAST.blankMs,
  loading: null, // stays until replaced or dismissed
}

let nextId = 1
const timers = new Map<number, ReturnType<typeof setTimeout>>()

export function dismissToast(id: number) {
  clearTimeout(timers.get(id))
  timers.delete(id)
  browserStore.set(toastsAtom, (list) => list.filter((t) => t.id !== id))
}

/** Shows a toast (or replaces toast `id`, e.g. a loading one) and returns its id. */
function show(kind: ToastKind, message: string, id?: number, action?: ToastAction, ms = DURATION[kind]): number {
  const toastId = id ?? nextId++
  clearTimeout(timers.get(toastId))
  browserStore.set(toastsAtom, (list) => {
    const rest = list.filter((t) => t.id !== toastId)
    // Oldest go first past the limit, so the newest message is always visible.
    return [...rest, { id: toastId, kind, message, ...(action ? { action } : {}) }].slice(-TOAST.max)
  })
  if (ms !== null) timers.set(toastId, setTimeout(() => dismissToast(toastId), ms))
  return toastId
}

export const toast = Object.assign((message: string) => show('blank', message), {
  success: (message: string, id?: number) => show('success', message, id),
  error: (message: string, id?: number) => show('error', message, id),
  info: (message: string, id?: number) => show('info', message, id),
  loading: (message: string) => show('loading', message),
  /** Success with a way back: `undo` is offered for TOAST.undoMs (10 s), then the toast and its button are gone. */
  undoable: (message: string, undo: () => void) => show('success', message, undefined, { label: 'Undo', run: undo }, TOAST.undoMs),
  dismiss: dismissToast,
})
